// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The page's pure pieces under node's test runner (`node --test tests/`): the
// SSE framing of fetch() bodies and the history sent back to the server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventStream } from '../src/sse.js';
import { historyForServer, SERVER_LIMITS } from '../src/chat/history.js';

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
