// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The page's pure pieces under node's test runner (`node --test tests/`): the
// SSE framing of fetch() bodies, the answer folded from a run's events, a
// stored thread as bubbles, and the history sent back to the server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventStream } from '../src/sse.js';
import { historyForServer, SERVER_LIMITS } from '../src/chat/history.js';
import { applyEvent, conversationFromThread, describeInput, newRun } from '../src/chat/run.js';

// A fetch()-like body delivering `text` as the given byte pieces.
function body(text, cuts = []) {
  const bytes = new TextEncoder().encode(text);
  const edges = [0, ...cuts.filter((c) => c > 0 && c < bytes.length), bytes.length];
  return new ReadableStream({
    start(controller) {
      for (let i = 1; i < edges.length; ++i) controller.enqueue(bytes.slice(edges[i - 1], edges[i]));
      controller.close();
    },
  });
}

async function events(text, cuts) {
  const seen = [];
  const complete = await readEventStream(body(text, cuts), (e) => seen.push(e));
  return { seen, complete };
}

const stream =
  'event: chunk\ndata: {"content": "Hola, "}\n\n' +
  ': heartbeat\n\n' +
  'event: chunk\r\ndata: {"content": "¿qué tal? €"}\r\n\r\n' +
  'event: tool_call\rdata: {"tool": "contar_iniciativas",\rdata:  "duration_ms": 12}\r\r' +
  'event: done\ndata: {"status": "completed"}\n\n';
const expected = [
  { type: 'chunk', data: '{"content": "Hola, "}' },
  { type: 'chunk', data: '{"content": "¿qué tal? €"}' },
  { type: 'tool_call', data: '{"tool": "contar_iniciativas",\n "duration_ms": 12}' },
  { type: 'done', data: '{"status": "completed"}' },
];

test('events framed by LF, CRLF and CR, comments skipped, data lines joined', async () => {
  const { seen, complete } = await events(stream);
  assert.deepEqual(seen, expected);
  assert.equal(complete, true);
});

test('the same events whatever the byte boundaries (inside CRLF and inside UTF-8 sequences too)', async () => {
  const length = new TextEncoder().encode(stream).length;
  for (let cut = 1; cut < length; ++cut) {
    const { seen } = await events(stream, [cut]);
    assert.deepEqual(seen, expected, `cut at byte ${cut}`);
  }
  const { seen } = await events(stream, Array.from({ length }, (_, i) => i)); // one byte at a time
  assert.deepEqual(seen, expected);
});

test('a stream cut inside an event dispatches nothing of it and says it was cut', async () => {
  const { seen, complete } = await events('event: chunk\ndata: {"content": "a"}\n\nevent: chunk\ndata: {"content"');
  assert.deepEqual(seen, [{ type: 'chunk', data: '{"content": "a"}' }]);
  assert.equal(complete, false);
});

test('an event without a type is a message; a field without a colon has an empty value', async () => {
  const { seen } = await events('data: x\n\ndata\n\n');
  assert.deepEqual(seen, [
    { type: 'message', data: 'x' },
    { type: 'message', data: '' },
  ]);
});

test('the last event id goes with every later event, as the SSE rules say', async () => {
  const { seen } = await events('id: 1\nevent: chunk\ndata: a\n\ndata: b\n\nid: 7\ndata: c\n\n');
  assert.deepEqual(seen.map((e) => e.id), ['1', '1', '7']);
});

// The events of a run as readEventStream gives them.
const ev = (id, type, payload) => ({ id: String(id), type, data: JSON.stringify(payload) });
const fold = (events, run = newRun()) => events.reduce(applyEvent, run);

test('a run folds chunks, rounds and tool steps, and ends on done', () => {
  const run = fold([
    ev(1, 'chunk', { content: 'Voy a ' }),
    ev(2, 'chunk', { content: 'contar.' }),
    ev(3, 'clear_streaming', {}),
    ev(4, 'tool_call', { tool: 'contar_iniciativas' }),
    ev(5, 'chunk', { content: 'Hay 850.' }),
    ev(6, 'done', { status: 'completed', thread_id: 't', run_id: 'r' }),
  ]);
  assert.equal(run.text, 'Hay 850.');
  assert.deepEqual(run.thinking, ['Voy a contar.']);
  assert.deepEqual(run.steps.map((s) => s.tool), ['contar_iniciativas']);
  assert.equal(run.done, true);
  assert.equal(run.status, 'completed');
  assert.equal(run.lastId, 6);
});

test('events already seen (a reattach that overlaps) change nothing', () => {
  const first = fold([ev(1, 'chunk', { content: 'Hola' }), ev(2, 'chunk', { content: ', qué' })]);
  const again = fold([ev(1, 'chunk', { content: 'Hola' }), ev(2, 'chunk', { content: ', qué' }), ev(3, 'chunk', { content: ' tal' })], first);
  assert.equal(again.text, 'Hola, qué tal');
  assert.equal(again.lastId, 3);
});

test('round_restart drops what came after discard_after, then the round goes on', () => {
  const run = fold([
    ev(1, 'chunk', { content: 'Voy a contar.' }),
    ev(2, 'clear_streaming', {}),
    ev(3, 'tool_call', { tool: 'contar_iniciativas' }),
    ev(4, 'chunk', { content: 'Hay 8' }), // the second round, cut when its server died
    ev(5, 'clear_streaming', {}),
    ev(6, 'tool_call', { tool: 'generar_grafico' }),
    ev(7, 'round_restart', { iteration: 2, discard_after: 3 }),
    ev(8, 'chunk', { content: 'Hay 850.' }),
    ev(9, 'done', { status: 'completed' }),
  ]);
  assert.equal(run.text, 'Hay 850.');
  assert.deepEqual(run.thinking, ['Voy a contar.']);
  assert.deepEqual(run.steps.map((s) => s.tool), ['contar_iniciativas']);
  assert.equal(run.lastId, 9);
  assert.equal(run.done, true);

  // Everything discarded: the answer starts over; a late copy of a dropped event stays out.
  const all = fold([ev(1, 'chunk', { content: 'abc' }), ev(2, 'round_restart', { iteration: 1, discard_after: 0 }),
    ev(2, 'chunk', { content: 'no' }), ev(3, 'chunk', { content: 'xyz' })]);
  assert.equal(all.text, 'xyz');
  assert.deepEqual(all.events.map((e) => e.id), [3]);
});

test('a malformed event or an error event keeps what came before', () => {
  const run = fold([ev(1, 'chunk', { content: 'Hola' }), { id: '2', type: 'chunk', data: '{' }, ev(3, 'error', { message: 'caído' })]);
  assert.equal(run.text, 'Hola');
  assert.equal(run.error, 'caído');
  assert.equal(run.lastId, 3);
});

// approval_required as the server sends it, and the tool_call of the decided call.
const approval = (id, call, tool = 'contar_iniciativas', input = { campo_agrupacion: 'estado_de_la_iniciativa' }) =>
  ev(id, 'approval_required', { run_id: 'r', tool_call_id: call, tool, input });
const decided = (id, tool, input, result_summary = '{}') =>
  ev(id, 'tool_call', { tool, input_summary: describeInput(input), input_raw: JSON.stringify(input), result_summary });

test('a call shows as the model writes it, until its result or its approval comes', () => {
  const writing = fold([
    ev(1, 'chunk', { content: 'Voy a contar.' }),
    ev(2, 'tool_call_start', { tool_call_id: 'toolu_1', tool: 'contar_iniciativas', iteration: 1 }),
    ev(3, 'tool_call_delta', { tool_call_id: 'toolu_1', delta: '{"campo_agrupacion":' }),
    ev(4, 'tool_call_delta', { tool_call_id: 'toolu_1', delta: '"unidad"}' }),
    ev(5, 'tool_call_start', { tool_call_id: 'toolu_2', tool: 'generar_grafico', iteration: 1 }),
  ]);
  assert.deepEqual(writing.forming, [
    { tool_call_id: 'toolu_1', tool: 'contar_iniciativas', args: '{"campo_agrupacion":"unidad"}' },
    { tool_call_id: 'toolu_2', tool: 'generar_grafico', args: '' },
  ]);
  const ran = fold([ev(6, 'clear_streaming', {}), ev(7, 'tool_call', { tool: 'contar_iniciativas', tool_call_id: 'toolu_1' })],
    writing);
  assert.deepEqual(ran.forming.map((f) => f.tool_call_id), ['toolu_2']);
  assert.deepEqual(ran.steps.map((s) => s.tool), ['contar_iniciativas']);
  // Waiting for a decision: a question now, not a call being written.
  assert.deepEqual(fold([approval(8, 'toolu_2', 'generar_grafico', {})], ran).forming, []);
  assert.deepEqual(fold([ev(8, 'done', { status: 'cancelled' })], ran).forming, []);
});

test('approval_required leaves the call pending until its tool_call comes', () => {
  const input = { campo_agrupacion: 'estado_de_la_iniciativa' };
  const waiting = fold([ev(1, 'chunk', { content: 'Voy a contar.' }), ev(2, 'clear_streaming', {}), approval(3, 'toolu_1')]);
  assert.deepEqual(waiting.approvals, [{ tool_call_id: 'toolu_1', tool: 'contar_iniciativas', input }]);
  assert.equal(waiting.done, false);
  assert.deepEqual(waiting.thinking, ['Voy a contar.']);

  // A replay from the start (F5) asks once, not twice.
  assert.equal(fold([approval(3, 'toolu_1')], { ...waiting, lastId: 0 }).approvals.length, 1);

  const rejected = "El usuario rechazó la llamada a 'contar_iniciativas': no hace falta";
  const resumed = fold([decided(4, 'contar_iniciativas', input, rejected), ev(5, 'chunk', { content: 'Sin datos.' }),
    ev(6, 'done', { status: 'completed' })], waiting);
  assert.deepEqual(fold([decided(4, 'contar_iniciativas', input)], waiting).approvals, []);
  assert.deepEqual(resumed.steps.map((s) => s.result_summary), [rejected]);
  assert.equal(resumed.text, 'Sin datos.');
  assert.equal(resumed.done, true);
});

test('a call in doubt after a crash is pending like an approval, and says so', () => {
  const input = { campo_agrupacion: 'unidad' };
  const waiting = fold([ev(1, 'approval_required', { run_id: 'r', tool_call_id: 'toolu_1', tool: 'contar_iniciativas', input, in_doubt: true })]);
  assert.deepEqual(waiting.approvals, [{ tool_call_id: 'toolu_1', tool: 'contar_iniciativas', input, in_doubt: true }]);
  assert.deepEqual(fold([decided(2, 'contar_iniciativas', input)], waiting).approvals, []);
});

test('several calls in one round: one pending approval each, settled call by call', () => {
  const a = { campo_agrupacion: 'unidad' };
  const b = { campo_agrupacion: 'estado_de_la_iniciativa' };
  const waiting = fold([approval(1, 'toolu_a', 'contar_iniciativas', a), approval(2, 'toolu_b', 'contar_iniciativas', b),
    approval(3, 'toolu_c', 'generar_grafico', {})]);
  assert.deepEqual(waiting.approvals.map((x) => x.tool_call_id), ['toolu_a', 'toolu_b', 'toolu_c']);
  // Matched by tool and input (the event does not name its call), in whatever order they ran.
  const one = fold([decided(4, 'contar_iniciativas', b)], waiting);
  assert.deepEqual(one.approvals.map((x) => x.tool_call_id), ['toolu_a', 'toolu_c']);
  // A tool_call_id, when the event has one, wins.
  const named = fold([ev(5, 'tool_call', { tool: 'generar_grafico', tool_call_id: 'toolu_c' })], one);
  assert.deepEqual(named.approvals.map((x) => x.tool_call_id), ['toolu_a']);
  // A call no prompt asked about changes no prompt.
  assert.deepEqual(fold([decided(6, 'buscar_iniciativas', {})], named).approvals.map((x) => x.tool_call_id), ['toolu_a']);
});

test('done (a cancelled waiting run) or an error clears the pending approvals; round_restart refolds them', () => {
  const waiting = fold([approval(1, 'toolu_1'), approval(2, 'toolu_2')]);
  const cancelled = fold([ev(3, 'done', { status: 'cancelled' })], waiting);
  assert.deepEqual(cancelled.approvals, []);
  assert.equal(cancelled.status, 'cancelled');
  assert.deepEqual(fold([ev(3, 'error', { message: 'caído' })], waiting).approvals, []);
  assert.deepEqual(fold([ev(3, 'round_restart', { iteration: 1, discard_after: 1 })], waiting).approvals.map((x) => x.tool_call_id),
    ['toolu_1']);
});

test('a call\'s arguments read as a sentence', () => {
  assert.equal(describeInput({ campo_agrupacion: 'estado_de_la_iniciativa' }), 'campo_agrupacion = estado_de_la_iniciativa');
  assert.equal(describeInput({ anio: 2025, unidades: ['A', 'B'] }), 'anio = 2025, unidades = ["A","B"]');
  assert.equal(describeInput({}), '');
  assert.equal(describeInput(null), '');
});

// A stored thread as GET /api/v1/threads/{id} returns it.
const stored = (messages, run = null) => ({ id: 't', title: 'x', messages, run });
const turns = [
  { seq: 1, role: 'user', text: '¿Cuántas hay?', run_id: 'r1' },
  { seq: 2, role: 'assistant', text: 'Voy a contar.', tool_calls: [{ id: 'c1', tool: 'contar_iniciativas', input: { campo_agrupacion: 'unidad' } }], run_id: 'r1' },
  { seq: 3, role: 'user', text: '', tool_results: [{ tool_use_id: 'c1', is_error: false, text: '{}' }], run_id: 'r1' },
  { seq: 4, role: 'assistant', text: 'Hay 850.', run_id: 'r1' },
  { seq: 5, role: 'user', text: '¿Y por estado?', run_id: 'r2' },
];

test('a stored thread shows questions and answers, the tool calls as the steps of the answer after them', () => {
  const { messages, running } = conversationFromThread(stored(turns.slice(0, 4), { run_id: 'r1', status: 'completed', last_event_id: 9 }));
  assert.equal(running, null);
  assert.deepEqual(messages.map((m) => [m.role, m.content]), [['user', '¿Cuántas hay?'], ['assistant', 'Hay 850.']]);
  assert.deepEqual(messages[1].toolSteps, [{ tool: 'contar_iniciativas', input_summary: 'campo_agrupacion=unidad' }]);
  assert.equal(messages[1].thinking, 'Voy a contar.');
});

test('a run in progress shows its question only (its answer comes from its events); a stopped one says so', () => {
  const inProgress = [...turns, { seq: 6, role: 'assistant', text: 'Cuento.', tool_calls: [{ id: 'c2', tool: 'contar_iniciativas', input: {} }], run_id: 'r2' }];
  const { messages, running } = conversationFromThread(stored(inProgress, { run_id: 'r2', status: 'running', last_event_id: 4 }));
  assert.equal(running, 'r2');
  assert.deepEqual(messages.map((m) => m.content), ['¿Cuántas hay?', 'Hay 850.', '¿Y por estado?']);

  // Waiting for an approval is in progress too: the prompt comes back from the run's events.
  const waiting = conversationFromThread(stored(inProgress, { run_id: 'r2', status: 'waiting', last_event_id: 3 }));
  assert.equal(waiting.running, 'r2');
  assert.deepEqual(waiting.messages.map((m) => m.content), ['¿Cuántas hay?', 'Hay 850.', '¿Y por estado?']);

  const stopped = conversationFromThread(stored(turns, { run_id: 'r2', status: 'cancelled', last_event_id: 4 }));
  assert.equal(stopped.running, null);
  assert.equal(stopped.messages.at(-1).role, 'assistant');
  assert.equal(stopped.messages.at(-1).stopped, true);
});

const user = (content) => ({ role: 'user', content });
const assistant = (content, extra = {}) => ({ role: 'assistant', content, ...extra });

test('history carries what was said, without failed or empty answers', () => {
  const messages = [
    user('¿Cuántas hay?'),
    assistant('', { error: 'No se pudo conectar con el servidor' }),
    user('¿Cuántas hay?'),
    assistant('Hay 850.', { toolSteps: [{ tool: 'contar_iniciativas' }], thinking: 'Voy a contar.' }),
    user('¿Y por unidad?'),
    assistant('', { stopped: true }),
    user('Por unidad, por favor'),
  ];
  const { messages: sent, dropped } = historyForServer(messages);
  assert.deepEqual(sent, [user('¿Cuántas hay?'), user('¿Cuántas hay?'), assistant('Hay 850.'), user('¿Y por unidad?'),
    user('Por unidad, por favor')]);
  assert.equal(dropped, 0);
});

test('a long conversation sends its newest part within the server limits, starting with a question', () => {
  const limits = { ...SERVER_LIMITS, maxMessages: 4 };
  const messages = [user('a'), assistant('b'), user('c'), assistant('d'), user('e'), assistant('f'), user('g')];
  const { messages: sent, dropped } = historyForServer(messages, limits);
  // The newest four are d, e, f, g; an answer cannot open the conversation.
  assert.deepEqual(sent.map((m) => m.content), ['e', 'f', 'g']);
  assert.equal(dropped, 4);

  // Bytes, not characters: "€" is three.
  const bytes = { ...SERVER_LIMITS, maxTotalBytes: 10 };
  const euros = historyForServer([user('€€€'), assistant('€€'), user('€')], bytes);
  assert.deepEqual(euros.messages, [user('€')]);
  assert.equal(euros.dropped, 2);
});

test('an answer over the per-message limit goes cut at a code point, marked, instead of blocking the conversation', () => {
  const limits = { ...SERVER_LIMITS, maxMessageBytes: 20 };
  const long = 'año '.repeat(10); // 5 bytes each
  const { messages: sent, dropped } = historyForServer([user('hola'), assistant(long), user('¿y?')], limits);
  assert.equal(dropped, 0);
  const cut = sent[1].content;
  assert.ok(cut.endsWith('\n\n[…]'), cut);
  assert.ok(new TextEncoder().encode(cut).length <= 20, cut);
  assert.ok(long.startsWith(cut.slice(0, -'\n\n[…]'.length)));
});

test('the newest question goes even alone over the limits: the server names the problem', () => {
  const big = 'x'.repeat(SERVER_LIMITS.maxTotalBytes + 1);
  assert.deepEqual(historyForServer([user('hola'), assistant('hola'), user(big)]).messages, [user(big)]);
});

import { fieldLabel, formatField } from '../src/detail/fields.js';

test('column names read as Spanish labels', () => {
  assert.equal(fieldLabel('fecha_ultimo_estado'), 'Fecha último estado');
  assert.equal(fieldLabel('en_presupuesto_del_anio'), 'En presupuesto del año');
  assert.equal(fieldLabel('responsable_ti'), 'Responsable TI');
  assert.equal(fieldLabel('capex_opex'), 'CAPEX OPEX');
  assert.equal(fieldLabel('num_componentes'), 'N.º componentes');
});

test('values formatted by what their column holds', () => {
  assert.equal(formatField('importe_2025', 18129.47), '18.129,47\u00a0€');
  assert.equal(formatField('budget_2026', 7400), '7400,00\u00a0€');
  assert.equal(formatField('importe_total', 1500, 'USD'), '1500,00\u00a0US$');
  assert.equal(formatField('porcentaje_ejecucion', 60.44), '60,4 %');
  assert.equal(formatField('dias_en_estado', 1489), '1489');
  assert.equal(formatField('num_hechos', 123456.789), '123.456,79');
  assert.equal(formatField('fecha_alta', '2020-08-18'), '18 ago 2020');
  assert.equal(formatField('fecha_alta', '2020-02-31'), '2020-02-31'); // not a date: shown as it is
  assert.equal(formatField('nombre', '2020-08-18'), '2020-08-18');
  assert.equal(formatField('nombre', null), '—');
  assert.equal(formatField('es_grupo', true), 'Sí');
  assert.equal(formatField('es_grupo', 0), 'No');
  assert.equal(formatField('en_presupuesto_del_anio', 1), 'Sí');
  assert.equal(formatField('desviacion_importe', 1829.47), '1829,47 €');
});
