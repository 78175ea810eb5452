// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// One agent application under the official A2A JavaScript client
// (@a2a-js/sdk 1.3.0, which speaks A2A 1.0): the card fetched and read, a
// streamed answer (then GetTask and ListTasks), the agent's own tool call as
// a WORKING status, a call that needs approval (INPUT_REQUIRED) resumed by a
// message on the same task, a cancellation, a client that leaves the stream
// and subscribes to the task again, the application's authentication, and
// the specification's errors.
//
//   node tests/a2a/flows.mjs '<config JSON>'
//
// config: {name, base, headers, answer: {question, match}, tool: {question, name},
//          approval: {question, tool, match} (optional), slow: {question, match}, keyed: bool}
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { Role, TaskState } from "@a2a-js/sdk";
import assert from "node:assert/strict";

const config = JSON.parse(process.argv[2]);
const { name, base, headers = {} } = config;
const say = (line) => console.log(`a2a ${name}: ${line}`);

const withHeaders = (extra) => (url, init = {}) => fetch(url, { ...init, headers: { ...init.headers, ...extra } });
async function connect(extra) {
  const fetchImpl = withHeaders(extra);
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    })
  ).createFromUrl(base);
}

const client = await connect(headers);
const message = (part, extra) => ({ messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [part], ...extra });
const text = (t, extra) => message({ content: { $case: "text", value: t } }, extra);
const data = (d, extra) => message({ content: { $case: "data", value: d }, mediaType: "application/json" }, extra);

async function collect(stream, onEvent = () => {}) {
  const out = { events: [], text: "" };
  for await (const { payload } of stream) {
    out.events.push(payload.$case);
    if (payload.$case === "task") out.task = payload.value;
    if (payload.$case === "artifactUpdate") {
      const piece = payload.value.artifact.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
      out.text = payload.value.append ? out.text + piece : piece;
    }
    if (payload.$case === "statusUpdate") out.last = payload.value.status;
    await onEvent(payload);
  }
  return out;
}

// 0. The card.
{
  const card = client.agentCard;
  assert.equal(card.supportedInterfaces[0].protocolVersion, "1.0");
  assert.ok(card.capabilities.streaming, "without streaming the client would fall back to SendMessage");
  assert.ok(card.skills.length > 0);
  say(`card: ${card.name} ${card.version}, ${card.skills.length} skills`);
}

// 1. A streamed answer; then GetTask and ListTasks.
{
  const r = await collect(client.sendMessageStream({ message: text(config.answer.question) }));
  assert.equal(r.events[0], "task");
  assert.ok(r.events.filter((e) => e === "artifactUpdate").length > 1, `not streamed: ${r.events}`);
  assert.equal(r.last.state, TaskState.TASK_STATE_COMPLETED);
  assert.match(r.text, new RegExp(config.answer.match));
  const got = await client.getTask({ id: r.task.id, historyLength: 1 });
  assert.equal(got.status.state, TaskState.TASK_STATE_COMPLETED);
  const page = await client.listTasks({ contextId: r.task.contextId, pageSize: 10 });
  assert.ok(page.tasks.some((t) => t.id === r.task.id), "ListTasks does not list the task");
  say(`answer streamed in ${r.events.filter((e) => e === "artifactUpdate").length} pieces; GetTask and ListTasks find it`);
}

// 2. The agent's own tool call, told as a WORKING status whose message carries it.
{
  let call;
  const r = await collect(client.sendMessageStream({ message: text(config.tool.question) }), (p) => {
    const parts = p.$case === "statusUpdate" ? p.value.status.message?.parts ?? [] : [];
    for (const x of parts) if (x.content?.$case === "data" && x.content.value.toolCall) call = x.content.value.toolCall;
  });
  assert.ok(call, "no tool call in the task's statuses");
  assert.equal(call.name, config.tool.name);
  assert.equal(r.last.state, TaskState.TASK_STATE_COMPLETED);
  say(`tool ${call.name} seen as the task worked`);
}

// 3. An approval pause (INPUT_REQUIRED), resumed by a message on the same task.
if (config.approval) {
  const r = await collect(client.sendMessageStream({ message: text(config.approval.question) }));
  assert.equal(r.last.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const [approval] = r.last.message.parts.find((p) => p.content?.$case === "data").content.value.approvals;
  assert.equal(approval.tool, config.approval.tool);
  const r2 = await collect(
    client.sendMessageStream({
      message: data(
        { decisions: [{ toolCallId: approval.toolCallId, approved: true }] },
        { taskId: r.task.id, contextId: r.task.contextId }
      ),
    })
  );
  assert.equal(r2.task.id, r.task.id, "the answer did not continue the same task");
  assert.equal(r2.last.state, TaskState.TASK_STATE_COMPLETED);
  assert.match(r2.text, new RegExp(config.approval.match));
  say(`approval of ${approval.tool}: INPUT_REQUIRED, resumed on the same task, completed`);
}

// 4. A cancellation, and the errors around it.
{
  let id;
  let cancelled;
  const r = await collect(client.sendMessageStream({ message: text(config.slow.question) }), (p) => {
    if (p.$case === "task") id = p.value.id;
    if (p.$case === "artifactUpdate" && !cancelled) cancelled = client.cancelTask({ id });
  });
  assert.equal((await cancelled).status.state, TaskState.TASK_STATE_CANCELED);
  assert.equal(r.last.state, TaskState.TASK_STATE_CANCELED);
  await assert.rejects(client.cancelTask({ id: crypto.randomUUID() }), { name: "TaskNotFoundError" });
  await assert.rejects(collect(client.resubscribeTask({ id })), { name: "UnsupportedOperationError" });
  say("cancelled mid-answer; an unknown task is TaskNotFoundError, an ended one cannot be followed");
}

// 5. A client that leaves the stream: the task goes on, and is followed again to its end.
{
  const leaving = new AbortController();
  let id;
  let pieces = 0;
  try {
    for await (const { payload } of client.sendMessageStream(
      { message: text(config.slow.question) },
      { signal: leaving.signal }
    )) {
      if (payload.$case === "task") id = payload.value.id;
      if (payload.$case === "artifactUpdate" && ++pieces === 2) leaving.abort();
    }
  } catch (e) {
    if (e.name !== "AbortError") throw e;
  }
  assert.equal((await client.getTask({ id })).status.state, TaskState.TASK_STATE_WORKING);
  const again = await collect(client.resubscribeTask({ id }));
  assert.equal(again.events[0], "task");
  assert.equal(again.last.state, TaskState.TASK_STATE_COMPLETED);
  const done = await client.getTask({ id });
  assert.match(done.artifacts[0].parts[0].content.value, new RegExp(config.slow.match));
  say(`left after ${pieces} pieces; subscribed again, followed to COMPLETED`);
}

// 6. The application's authentication.
if (config.keyed) {
  const stranger = await connect({}); // the card is public
  await assert.rejects(stranger.sendMessage({ message: text(config.answer.question) }), /401/);
  say("without a key: 401");
}

// 7. The version rule, without the SDK: no A2A-Version means 0.3.
{
  const response = await fetch(`${base}/a2a`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }),
  });
  const body = await response.json();
  assert.equal(body.error.code, -32009);
  say(`no A2A-Version: ${body.error.message}`);
}

say("ok");
