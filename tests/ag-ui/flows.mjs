// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One agent application under the official AG-UI client: @ag-ui/client's
// HttpAgent runs it, its verifier checks every event's shape and order, and
// its state building makes the messages a front end shows. The flows: a
// streamed answer, the agent's own tool call, a call of the client's tool
// (a frontend tool) answered in a second run, a call that needs a person's
// approval (an interrupt, resumed by the next run; the thread's messages
// given back first), a plan's steps and state, a cancellation through the
// cancel route, a client that leaves mid-stream and follows the run again
// (`POST {url}/connect`, the run going on without it), the application's
// authentication, and bad input answered with the protocol's RUN_ERROR.
//
//   node tests/ag-ui/flows.mjs '<config JSON>'
//
// config: {name, url, headers, answer: {question, match}, tool: {question, name, match},
//          clientTool: {question, match} (optional), approval: {question, tool, match} (optional),
//          plan: {question, steps, match} (optional: an agent that plans),
//          slow: {question, match}, keyed: bool}
import { HttpAgent, runHttpRequest, transformHttpEventStream } from "@ag-ui/client";
import assert from "node:assert/strict";

const config = JSON.parse(process.argv[2]);
const { name, url, headers = {} } = config;
const say = (line) => console.log(`ag-ui ${name}: ${line}`);

// The client warns when it strips, translates or cannot apply what it was sent: each is a failure here.
const warn = console.warn;
console.warn = (...args) => {
  warn(...args);
  if (String(args[0]).startsWith("[ag-ui]")) {
    console.error(`ag-ui ${name}: the client warned about the stream`);
    process.exitCode = 1;
  }
};

/** An HttpAgent that can follow a run again: POST {url}/connect, as agentio serves it. */
class Resumable extends HttpAgent {
  connect(input) {
    return transformHttpEventStream(runHttpRequest(() => this.fetch(`${this.url}/connect`, this.requestInit(input))));
  }
}

async function run(agent, params = {}, onEvent = () => {}) {
  const events = [];
  let error;
  let finished;
  const result = await agent.runAgent(params, {
    onEvent: ({ event }) => {
      events.push(event);
      onEvent(event);
    },
    onRunErrorEvent: ({ event }) => {
      error = event;
    },
    onRunFinishedEvent: (p) => {
      finished = p;
    },
  });
  assert.equal(error, undefined, `RUN_ERROR: ${error?.message}`); // runAgent resolves on RUN_ERROR
  assert.ok(finished, "the stream ended without RUN_FINISHED"); // ... and on a cut stream
  return { events, finished, result, types: events.map((e) => e.type) };
}

function answerText(agent) {
  const last = agent.messages.filter((m) => m.role === "assistant" && typeof m.content === "string").at(-1);
  return last?.content ?? "";
}

function userSays(agent, text) {
  agent.addMessage({ id: crypto.randomUUID(), role: "user", content: text });
}

// 1. A streamed answer.
{
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.answer.question);
  const r = await run(agent);
  assert.equal(r.types[0], "RUN_STARTED");
  assert.equal(r.events[0].threadId, agent.threadId);
  assert.ok(r.types.filter((t) => t === "TEXT_MESSAGE_CONTENT").length > 1, `not streamed: ${r.types}`);
  assert.equal(r.finished.outcome, "success");
  assert.match(answerText(agent), new RegExp(config.answer.match));
  assert.ok(r.result.newMessages.length >= 1);
  say(`answer streamed in ${r.types.filter((t) => t === "TEXT_MESSAGE_CONTENT").length} pieces`);
}

// 2. The agent's own tool: its call as it forms, its result, then the answer.
{
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.tool.question);
  const r = await run(agent);
  const start = r.events.find((e) => e.type === "TOOL_CALL_START");
  assert.ok(start, `no TOOL_CALL_START: ${r.types}`);
  assert.equal(start.toolCallName, config.tool.name);
  const args = r.events
    .filter((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === start.toolCallId)
    .map((e) => e.delta)
    .join("");
  JSON.parse(args);
  const result = r.events.find((e) => e.type === "TOOL_CALL_RESULT" && e.toolCallId === start.toolCallId);
  assert.ok(result, "no TOOL_CALL_RESULT for the agent's own call");
  assert.equal(r.finished.outcome, "success");
  assert.deepEqual(r.finished.pendingToolCallIds ?? [], [], "the agent's own call is not the client's to run");
  const call = agent.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === start.toolCallId);
  assert.ok(call, "the call is not in the client's messages");
  assert.ok(agent.messages.some((m) => m.role === "tool" && m.toolCallId === start.toolCallId));
  assert.match(answerText(agent), new RegExp(config.tool.match));
  say(`tool ${start.toolCallName}(${args}) → ${String(result.content).slice(0, 60)}`);
}

// 3. A frontend tool: the client runs it and sends its result in the next run.
if (config.clientTool) {
  const confirmar = {
    name: "confirmar",
    description: "Pide a la persona que confirme",
    parameters: { type: "object", properties: { pregunta: { type: "string" } }, required: ["pregunta"] },
  };
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.clientTool.question);
  const r = await run(agent, { tools: [confirmar] });
  assert.equal(r.finished.outcome, "success");
  const [pending] = r.finished.pendingToolCallIds ?? [];
  assert.ok(pending, `no pending call: ${JSON.stringify(r.finished)}`);
  const call = agent.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === pending);
  assert.equal(call.function.name, "confirmar");
  assert.ok(JSON.parse(call.function.arguments).pregunta);
  agent.addMessage({ id: crypto.randomUUID(), role: "tool", toolCallId: pending, content: "sí, confirmo" });
  const r2 = await run(agent, { tools: [confirmar] });
  assert.equal(r2.finished.outcome, "success");
  assert.deepEqual(r2.finished.pendingToolCallIds ?? [], []);
  assert.match(answerText(agent), new RegExp(config.clientTool.match));
  say("frontend tool run by the client, its result answered in a second run");
}

// 3b. An approval pause: the run ends with an interrupt; the client goes on only with `resume` answering it.
if (config.approval) {
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.approval.question);
  const r = await run(agent);
  assert.equal(r.finished.outcome, "interrupt", JSON.stringify(r.finished));
  const [interrupt] = agent.pendingInterrupts;
  assert.ok(interrupt, "no pending interrupt");
  assert.equal(interrupt.reason, "tool_call");
  assert.equal(interrupt.metadata.agentio.tool, config.approval.tool);
  assert.ok(interrupt.message, "the interrupt asks nothing");
  assert.ok(!r.events.some((e) => e.type === "TOOL_CALL_RESULT"), "the call ran before its approval");
  const call = agent.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === interrupt.toolCallId);
  assert.equal(call?.function.name, config.approval.tool, "the call waiting is not in the client's messages");
  await assert.rejects(run(agent), /pending interrupt/); // the client refuses, before asking the server
  const r2 = await run(agent, {
    resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
  });
  assert.ok(r2.events.some((e) => e.type === "TOOL_CALL_RESULT" && e.toolCallId === interrupt.toolCallId));
  // The resumed run gives the thread's messages first: the client's are the thread's.
  assert.equal(r2.types[1], "MESSAGES_SNAPSHOT", `${r2.types}`);
  assert.ok(r2.events[1].messages.some((m) => (m.toolCalls ?? []).some((c) => c.id === interrupt.toolCallId)));
  assert.equal(r2.finished.outcome, "success");
  assert.deepEqual(agent.pendingInterrupts ?? [], []);
  assert.match(answerText(agent), new RegExp(config.approval.match));
  // The thread goes on as any other.
  userSays(agent, config.answer.question);
  assert.equal((await run(agent)).finished.outcome, "success");
  say(`approval of ${interrupt.metadata.agentio.tool}: interrupted ("${interrupt.message}"), resumed, answered`);
}

// 3c. A plan: its steps as STEP_STARTED/FINISHED, the plan as the run's state (a snapshot, then JSON Patches
// the client applies), the strategy forced through forwardedProps as the OpenAI door's `agent_type`.
if (config.plan) {
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.plan.question);
  const r = await run(agent, { forwardedProps: { agent_type: "plan_execute" } });
  assert.equal(r.finished.outcome, "success");
  const steps = r.events.filter((e) => e.type === "STEP_STARTED").map((e) => e.stepName);
  assert.equal(steps.length, config.plan.steps, `${r.types}`);
  assert.equal(r.types.filter((t) => t === "STEP_FINISHED").length, steps.length);
  assert.equal(r.types.filter((t) => t === "STATE_SNAPSHOT").length, 1);
  assert.ok(r.types.includes("STATE_DELTA"), `${r.types}`);
  // The state the client built from the snapshot and the patches: every step done.
  assert.equal(agent.state.plan.steps.length, config.plan.steps, JSON.stringify(agent.state));
  assert.deepEqual(
    agent.state.plan.steps.map((s) => s.status),
    Array(config.plan.steps).fill("done"),
    JSON.stringify(agent.state)
  );
  assert.match(answerText(agent), new RegExp(config.plan.match));
  say(`plan of ${steps.length} steps (${steps.join(" | ")}), its state patched to the end`);
}

// 4. A cancellation, through the cancel route (AG-UI has none of its own).
{
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.slow.question);
  let runId;
  let asked;
  const r = await run(agent, {}, (e) => {
    if (e.type === "RUN_STARTED") runId = e.runId;
    if (e.type === "TEXT_MESSAGE_CONTENT" && !asked)
      asked = fetch(`${url}/cancel`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ threadId: agent.threadId, runId }),
      });
  });
  const answer = await asked;
  assert.equal(answer.status, 200, await answer.text());
  assert.equal(r.finished.outcome, "cancelled");
  const again = await fetch(`${url}/cancel`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ threadId: agent.threadId, runId }),
  });
  assert.equal(again.status, 404, "a run that is over cannot be cancelled");
  say("cancelled mid-answer");
}

// 5. A client that leaves mid-stream: the run goes on; the client follows it again from its start.
{
  const agent = new HttpAgent({ url, headers });
  userSays(agent, config.slow.question);
  const runId = crypto.randomUUID();
  let pieces = 0;
  await agent.runAgent(
    { runId },
    {
      onTextMessageContentEvent: () => {
        if (++pieces === 2) agent.abortRun();
      },
    }
  );
  assert.ok(pieces >= 2);
  const back = new Resumable({ url, headers, threadId: agent.threadId });
  const events = [];
  let finished;
  await back.connectAgent(
    { runId },
    { onEvent: ({ event }) => events.push(event), onRunFinishedEvent: (p) => (finished = p) }
  );
  assert.equal(events[0].type, "RUN_STARTED");
  assert.equal(events[0].runId, runId);
  assert.ok(finished, "no RUN_FINISHED after following the run again");
  assert.equal(finished.outcome, "success");
  assert.match(answerText(back), new RegExp(config.slow.match));
  say(`left after ${pieces} pieces; followed again, ${events.length} events to the end`);
}

// 6. The application's authentication on the new routes.
if (config.keyed) {
  const stranger = new HttpAgent({ url });
  userSays(stranger, config.answer.question);
  await assert.rejects(stranger.runAgent(), /HTTP 401/);
  const cancel = await fetch(`${url}/cancel`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ threadId: "t", runId: "r" }),
  });
  assert.equal(cancel.status, 401);
  say("without a key: 401");
}

// 7. Bad input: the protocol's own RUN_ERROR, naming the field, seen by the client as such.
{
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ threadId: "t-1", messages: [] }),
  });
  assert.equal(response.status, 200);
  const text = await response.text();
  const events = text
    .split("\n\n")
    .filter((f) => f.startsWith("data: "))
    .map((f) => JSON.parse(f.slice(6)));
  assert.equal(events.length, 1, text);
  assert.equal(events[0].type, "RUN_ERROR");
  assert.equal(events[0].code, "invalid_input");
  assert.equal(events[0].metadata.agentio.field, "runId");
  say(`bad input: ${events[0].message}`);
}

if (process.exitCode) process.exit(process.exitCode);
say("ok");
