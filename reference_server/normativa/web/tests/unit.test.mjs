// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The page's pure modules under node's test runner: the SSE parser (events cut
// anywhere, \r\n, multi-line data) and what the page shows for tools, sources
// and answer text.
//   node --test tests/unit.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inline, sourceLabel, textBlocks, toolLabel, uniqueSources } from '../format.js';
import { readEvents, SseParser } from '../sse.js';

const parse = (pieces) => {
  const events = [];
  const p = new SseParser((e) => events.push([e.event, e.data]));
  for (const piece of pieces) p.push(piece);
  p.end();
  return events;
};

const stream = 'event: tool_status\ndata: {"tool":"search_normativa"}\n\nevent: token\ndata: {"text":"Según"}\n\n' +
  ': a comment\nevent: done\ndata: {"threadId":"t"}\n\n';
const expected = [['tool_status', '{"tool":"search_normativa"}'], ['token', '{"text":"Según"}'], ['done', '{"threadId":"t"}']];

test('SSE: whole, and cut at every position', () => {
  assert.deepEqual(parse([stream]), expected);
  for (let i = 1; i < stream.length; ++i) assert.deepEqual(parse([stream.slice(0, i), stream.slice(i)]), expected, `cut at ${i}`);
  assert.deepEqual(parse([...stream]), expected, 'one character at a time');
});

test('SSE: \\r\\n and \\r line ends, also cut between \\r and \\n', () => {
  const crlf = stream.replaceAll('\n', '\r\n');
  assert.deepEqual(parse([crlf]), expected);
  for (let i = 1; i < crlf.length; ++i) assert.deepEqual(parse([crlf.slice(0, i), crlf.slice(i)]), expected, `cut at ${i}`);
  assert.deepEqual(parse([stream.replaceAll('\n', '\r')]), expected);
});

test('SSE: multi-line data, no space after the colon, message by default, empty data', () => {
  assert.deepEqual(parse(['data: uno\ndata:dos\ndata:  tres\n\n']), [['message', 'uno\ndos\n tres']]);
  assert.deepEqual(parse(['event: x\n\ndata\n\n']), [['message', '']]);
  assert.deepEqual(parse(['\uFEFFevent: a\ndata: 1\n\n']), [['a', '1']]);
});

test('SSE: an event cut off by the end of the stream is discarded', () => {
  assert.deepEqual(parse(['event: token\ndata: {"text":"a"}\n\nevent: done\ndata: {}']), [['token', '{"text":"a"}']]);
  assert.deepEqual(parse(['data: x\n']), []);
});

test('SSE: readEvents decodes UTF-8 split across chunks', async () => {
  const bytes = new TextEncoder().encode('event: token\r\ndata: {"text":"artículo — días"}\r\n\r\n');
  const body = new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
      c.close();
    },
  });
  const events = [];
  await readEvents(body, (e) => events.push(e));
  assert.equal(events.length, 1);
  assert.equal(JSON.parse(events[0].data).text, 'artículo — días');
});

test('tool labels', () => {
  assert.equal(toolLabel('search_normativa', { query: 'vacaciones' }), 'Buscando normativa…');
  assert.equal(toolLabel('search_sentencias', {}), 'Buscando sentencias…');
  assert.equal(toolLabel('get_article', { article_number: '48', law_name: 'Estatuto de los Trabajadores' }), 'Consultando artículo 48…');
  assert.equal(toolLabel('get_article', { article_number: 'Disposición adicional décima' }), 'Consultando disposición adicional décima…');
  assert.equal(toolLabel('get_article', null), 'Consultando artículo…');
  assert.equal(toolLabel('get_related_chunks', { chunk_id: 12 }), 'Siguiendo referencias…');
  assert.equal(toolLabel('otra', {}), 'Consultando otra…');
});

test('sources: "law — section", once each', () => {
  const et = 'Estatuto de los Trabajadores';
  assert.equal(sourceLabel({ law: et, section: 'Art. 48' }), `${et} — Art. 48`);
  const list = uniqueSources([{ id: 1, law: et, section: 'Art. 38' }, { id: 2, law: et, section: 'Art. 38' },
    { id: 3, law: et, section: 'Art. 34', chapter: 'CAPÍTULO II' }, { id: 4 }]);
  assert.deepEqual(list.map((s) => s.label), [`${et} — Art. 38`, `${et} — Art. 34`]);
  assert.deepEqual(uniqueSources(undefined), []);
});

test('answer text: paragraphs, line breaks, lists, bold; never HTML', () => {
  assert.deepEqual(textBlocks('Uno.\n\nDos\ntres.'), [
    { type: 'p', lines: [[{ text: 'Uno.', strong: false }]] },
    { type: 'p', lines: [[{ text: 'Dos', strong: false }], [{ text: 'tres.', strong: false }]] },
  ]);
  const b = textBlocks('Puntos:\n- a\n- **b** c\n  sigue\n\n1. x\n2) y\n### Título');
  assert.deepEqual(b.map((x) => x.type), ['p', 'ul', 'ol', 'h']);
  assert.deepEqual(b[1].items[1], [{ text: 'b', strong: true }, { text: ' c sigue', strong: false }]);
  assert.deepEqual(inline('<b>x</b> **y'), [{ text: '<b>x</b> **y', strong: false }]);
  assert.deepEqual(textBlocks('\r\n\r\n'), []);
});
