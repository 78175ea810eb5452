// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The answer in progress as a pure fold of the run's events, and a stored
// thread as the page shows it. Pure so node's test runner checks them.

/** An answer before its first event. */
export function newRun() {
  return {
    events: [], lastId: 0, text: '', steps: [], forming: [], thinking: [], approvals: [], error: null, done: false,
    status: null,
  };
}

// The calls the model is writing: {tool_call_id, tool, args (JSON text so far)}, until each one's result comes.
const withoutCall = (forming, call) =>
  call.tool_call_id ? forming.filter((f) => f.tool_call_id !== call.tool_call_id)
    : forming.filter((f, i) => i !== forming.findIndex((g) => g.tool === call.tool));

const sameInput = (a, b) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

// The pending approval a tool_call event settles. The event names its call only
// if the server sends `tool_call_id`; otherwise the first pending call of that
// tool, preferring the one with the same input (`input_raw` is its JSON text).
function settledBy(approvals, call) {
  if (call.tool_call_id) return approvals.findIndex((a) => a.tool_call_id === call.tool_call_id);
  let input;
  try {
    input = typeof call.input_raw === 'string' ? JSON.parse(call.input_raw) : call.input_raw;
  } catch {
    input = undefined;
  }
  const same = approvals.findIndex((a) => a.tool === call.tool && input !== undefined && sameInput(a.input, input));
  return same >= 0 ? same : approvals.findIndex((a) => a.tool === call.tool);
}

// One event's effect on a fresh copy (`run` is not shared yet).
function fold(run, { type, payload }) {
  if (type === 'chunk') run.text += payload.content ?? '';
  else if (type === 'tool_call_start') {
    if (!run.forming.some((f) => f.tool_call_id === payload.tool_call_id))
      run.forming = [...run.forming, { tool_call_id: payload.tool_call_id, tool: payload.tool ?? '', args: '' }];
  } else if (type === 'tool_call_delta') {
    run.forming = run.forming.map((f) =>
      f.tool_call_id === payload.tool_call_id ? { ...f, args: f.args + (payload.delta ?? '') } : f);
  } else if (type === 'clear_streaming') {
    run.thinking = [...run.thinking, run.text];
    run.text = '';
  } else if (type === 'tool_call') {
    run.steps = [...run.steps, payload];
    run.forming = withoutCall(run.forming, payload);
    const i = settledBy(run.approvals, payload);
    if (i >= 0) run.approvals = run.approvals.filter((_, j) => j !== i);
  } else if (type === 'approval_required') {
    // The run sleeps until each call is decided; a replay does not ask twice.
    run.forming = withoutCall(run.forming, payload); // now a question to the user
    if (payload.tool_call_id && !run.approvals.some((a) => a.tool_call_id === payload.tool_call_id))
      run.approvals = [...run.approvals, {
        tool_call_id: payload.tool_call_id,
        tool: payload.tool ?? '',
        input: payload.input ?? {},
        // Interrupted by a crash: the call may already have acted.
        ...(payload.in_doubt === true ? { in_doubt: true } : {}),
      }];
  } else if (type === 'error') {
    run.error = payload.message || 'Error del asistente';
    run.approvals = [];
    run.forming = [];
  } else if (type === 'done') {
    run.done = true;
    run.status = payload.status ?? 'completed';
    run.approvals = []; // a cancelled run decides nothing more
    run.forming = [];
  }
  return run;
}

/**
 * The run after one event of its stream ({type, data, id} from readEventStream).
 * An event whose id was already seen is skipped: a reattach that overlaps
 * shows nothing twice. `round_restart` drops what came after `discard_after`
 * (another server asks that round again) and goes on from there.
 * `approval_required` adds a call waiting for the user's decision to
 * `approvals`; its `tool_call`, or the run's end, takes it out.
 */
export function applyEvent(run, { type, data, id }) {
  const n = id === undefined ? null : Number(id);
  if (n !== null && Number.isFinite(n) && n <= run.lastId) return run;
  const lastId = n !== null && Number.isFinite(n) ? n : run.lastId;
  let payload;
  try {
    payload = JSON.parse(data);
  } catch {
    return { ...run, lastId }; // a malformed event: keep what came before (graceful degradation)
  }
  if (type === 'round_restart') {
    const after = Number(payload.discard_after) || 0;
    const kept = run.events.filter((e) => (e.id ?? 0) <= after);
    return { ...kept.reduce(fold, newRun()), events: kept, lastId };
  }
  const event = { type, payload, id: n };
  return { ...fold({ ...run }, event), events: [...run.events, event], lastId };
}

/**
 * A call's arguments as a sentence reads them: "campo_agrupacion = unidad, anio = 2025"
 * ('' without arguments).
 */
export function describeInput(input) {
  if (!input || typeof input !== 'object') return '';
  return Object.entries(input)
    .map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

// "campo_agrupacion=unidad, anio=2025": a stored call's input as the live step shows it.
function inputSummary(input) {
  if (!input || typeof input !== 'object') return '';
  return Object.entries(input)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

const inProgress = (run) => run && (run.status === 'running' || run.status === 'waiting');

/**
 * A stored thread (GET /api/v1/threads/{id}) as bubbles: the questions, and
 * for each the final answer with the tool calls before it as its steps (what
 * the model said before a call is its reasoning); the tool results are not
 * bubbles. The run still in progress shows its questions only: its answer is
 * rebuilt from the run's events. Returns {messages, running: run_id | null}.
 */
export function conversationFromThread(thread) {
  const running = inProgress(thread.run) ? thread.run.run_id : null;
  const messages = [];
  let steps = [];
  let thinking = [];
  const flush = (note) => {
    if (steps.length || thinking.length || note)
      messages.push({ role: 'assistant', content: '', error: null, stopped: false, ...note, toolSteps: steps,
        thinking: thinking.join('\n\n') });
    steps = [];
    thinking = [];
  };
  for (const m of thread.messages ?? []) {
    if (running && m.run_id === running && m.role === 'assistant') continue;
    if (m.role === 'user') {
      if (!m.text?.trim()) continue; // only tool results: the model's own steps
      flush(steps.length || thinking.length ? { error: 'La respuesta no terminó.' } : null);
      messages.push({ role: 'user', content: m.text });
    } else if (m.tool_calls?.length) {
      steps.push(...m.tool_calls.map((c) => ({ tool: c.tool, input_summary: inputSummary(c.input) })));
      if (m.text?.trim()) thinking.push(m.text);
    } else {
      messages.push({ role: 'assistant', content: m.text ?? '', error: null, stopped: false, toolSteps: steps,
        thinking: thinking.join('\n\n') });
      steps = [];
      thinking = [];
    }
  }
  // The last question without an answer: stopped, failed, or still in progress (then nothing).
  if (!running && messages.at(-1)?.role === 'user' || steps.length || thinking.length) {
    const status = thread.run?.status;
    flush(status === 'cancelled' ? { stopped: true } : { error: 'La respuesta no terminó.' });
  }
  return { messages, running };
}
