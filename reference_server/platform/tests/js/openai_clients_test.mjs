// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The official openai SDK and the Vercel AI SDK (@ai-sdk/openai-compatible)
// against a running agentio-platform whose model is the fake LLM with
// tests/scenarios/platform-clients.json. No conformance suite exists for Chat
// Completions: the clients people use are the suite.
//
//   node openai_clients_test.mjs --base-url http://127.0.0.1:PORT/v1 [--jwt-secret SECRET]
// With a secret, the tokens of two users are signed here (HS256, Node's crypto).

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import OpenAI, { toFile } from 'openai';
import { generateText, streamText, tool, stepCountIs } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
const baseURL = args['base-url'];
const sign = (claims) => {
  const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', args['jwt-secret']).update(input).digest('base64url')}`;
};
const inTenMinutes = Math.floor(Date.now() / 1000) + 600;
const token = args['jwt-secret'] ? sign({ sub: 'ana', exp: inTenMinutes }) : 'none';
if (args['jwt-secret']) args['other-token'] = sign({ sub: 'eva', exp: inTenMinutes });
assert.ok(baseURL, '--base-url is required');

const client = new OpenAI({ baseURL, apiKey: token, maxRetries: 0 });
const results = [];

async function check(name, body) {
  try {
    await body();
    results.push([name, 'ok']);
    console.log(`ok   ${name}`);
  } catch (e) {
    results.push([name, 'FAILED']);
    console.log(`FAIL ${name}\n     ${e?.stack ?? e}`);
  }
}

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'El tiempo de una ciudad',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

await check('openai: models.list and models.retrieve', async () => {
  const ids = [];
  for await (const m of client.models.list()) ids.push(m.id);
  assert.ok(ids.includes('asistente'), `models: ${ids}`);
  const one = await client.models.retrieve('asistente');
  assert.equal(one.object, 'model');
});

await check('openai: create, not streamed', async () => {
  const r = await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'Di hola' }] });
  assert.equal(r.object, 'chat.completion');
  assert.equal(r.choices[0].message.role, 'assistant');
  assert.equal(r.choices[0].message.content, 'Hola desde agentio.');
  assert.equal(r.choices[0].finish_reason, 'stop');
  assert.ok(r.usage.total_tokens > 0);
});

await check('openai: create, streamed with include_usage', async () => {
  const stream = await client.chat.completions.create({
    model: 'asistente', stream: true, stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'Di algo largo' }],
  });
  let text = '', finish = null, usage = null, chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      text += c.delta?.content ?? '';
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  assert.equal(text, 'uno dos tres cuatro cinco seis siete ocho nueve diez');
  assert.equal(finish, 'stop');
  assert.ok(chunks > 3, `${chunks} chunks`);
  assert.ok(usage && usage.completion_tokens === 10, JSON.stringify(usage));
});

await check('openai: stream() helper and finalChatCompletion', async () => {
  const runner = client.chat.completions.stream({ model: 'asistente', messages: [{ role: 'user', content: 'Di hola' }] });
  let deltas = '';
  runner.on('content', (d) => { deltas += d; });
  const final = await runner.finalChatCompletion();
  assert.equal(final.choices[0].message.content, 'Hola desde agentio.');
  assert.equal(deltas, 'Hola desde agentio.');
});

await check('openai: stop sequences', async () => {
  const r = await client.chat.completions.create({
    model: 'asistente', stop: ['cinco'], messages: [{ role: 'user', content: 'Di algo largo' }],
  });
  assert.equal(r.choices[0].message.content, 'uno dos tres cuatro ');
  assert.equal(r.choices[0].finish_reason, 'stop');
});

await check('openai: server-side tools show as reasoning_content', async () => {
  const r = await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'calcula 6 por 7' }] });
  assert.match(r.choices[0].message.content, /42/);
  assert.match(r.choices[0].message.reasoning_content, /math_calc/);
});

await check('openai: client tools streamed keep their index (finalChatCompletion has the calls)', async () => {
  const runner = client.chat.completions.stream({
    model: 'asistente', tools: [weather], messages: [{ role: 'user', content: '¿Qué tiempo hace en Madrid?' }],
  });
  const final = await runner.finalChatCompletion();
  const calls = final.choices[0].message.tool_calls ?? [];
  assert.equal(calls.length, 1, JSON.stringify(final.choices[0]));
  assert.equal(calls[0].function.name, 'get_weather');
  assert.deepEqual(JSON.parse(calls[0].function.arguments), { city: 'Madrid' });
  assert.equal(final.choices[0].finish_reason, 'tool_calls');
});

for (const stream of [false, true]) {
  await check(`openai: runTools${stream ? ' (streamed)' : ''} runs the client's tool and finishes`, async () => {
    let called = null;
    const runner = client.chat.completions.runTools({
      model: 'asistente', stream,
      messages: [{ role: 'user', content: '¿Qué tiempo hace en Madrid?' }],
      tools: [{
        type: 'function',
        function: {
          name: 'get_weather', description: 'El tiempo de una ciudad',
          parameters: weather.function.parameters,
          parse: JSON.parse,
          function: (a) => { called = a; return 'soleado, 21 grados'; },
        },
      }],
    });
    const content = await runner.finalContent();
    assert.deepEqual(called, { city: 'Madrid' });
    assert.equal(content, 'Resultado: soleado, 21 grados');
  });
}

await check('openai: errors are the SDK\'s classes', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'gpt-nadie', messages: [{ role: 'user', content: 'x' }] }),
    (e) => e instanceof OpenAI.NotFoundError && e.status === 404 && /asistente/.test(e.message));
  await assert.rejects(
    client.chat.completions.create({ model: 'asistente', messages: [] }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'messages');
  await assert.rejects(
    client.chat.completions.create({ model: 'asistente', n: 2, messages: [{ role: 'user', content: 'x' }] }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'n');
  await assert.rejects(
    client.chat.completions.create({ model: 'asistente', messages: [{ role: 'robot', content: 'x' }] }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'messages[0].role');
});

await check('openai: a stream that fails midway raises APIError', async () => {
  const stream = await client.chat.completions.create({
    model: 'asistente', stream: true, messages: [{ role: 'user', content: 'esto falla' }],
  });
  await assert.rejects(async () => { for await (const _ of stream) { /* read */ } }, (e) => e instanceof OpenAI.APIError);
});

if (token !== 'none') {
  await check('openai: a bad or expired token is an AuthenticationError', async () => {
    for (const bad of ['not-a-jwt', sign({ sub: 'ana', exp: inTenMinutes - 3600 })]) {
      const intruder = new OpenAI({ baseURL, apiKey: bad, maxRetries: 0 });
      await assert.rejects(
        intruder.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'x' }] }),
        (e) => e instanceof OpenAI.AuthenticationError && e.status === 401);
    }
  });
}

if (args['other-token']) {
  await check('openai: sessions remember, and another user\'s session is a 404', async () => {
    const session = `s-${process.pid}`;
    await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'Di hola' }], session_id: session });
    const r = await client.chat.completions.create(
      { model: 'asistente', messages: [{ role: 'user', content: 'Di algo largo' }] },
      { headers: { 'X-Session-Id': session } });
    assert.equal(r.choices[0].finish_reason, 'stop');
    assert.ok(r.usage.prompt_tokens > 0);
    const other = new OpenAI({ baseURL, apiKey: args['other-token'], maxRetries: 0 });
    await assert.rejects(
      other.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'x' }], session_id: session }),
      (e) => e instanceof OpenAI.NotFoundError);
  });
}

await check('openai: asistente runs Python and solves equations in the sandbox', async () => {
  const python = await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'Usa python para la mediana' }], agent_type: 'tools' });
  assert.match(python.choices[0].message.content, /"value":"3"/);
  assert.match(python.choices[0].message.reasoning_content, /python_code/);
  const solved = await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: 'Resuelve la ecuación' }], agent_type: 'tools' });
  assert.match(solved.choices[0].message.content, /"result":"\[2, 3\]"/);
});

await check('openai: each new tool through each strategy (tools, react, plan_execute), over uploaded files and the web', async () => {
  const data = await client.files.create({ file: await toFile(Buffer.from('region,amount\nnorth,0.1\nnorth,0.2\n'), 'ventas.csv'), purpose: 'user_data' });
  const policy = await client.files.create({ file: await toFile(Buffer.from('# Viajes\nLas dietas de viaje son de 53 euros diarios.\n'), 'politica.md'), purpose: 'user_data' });
  try {
    // The question, and what the tool's result holds when it ran (the model reads it; the reasoning shows it).
    const cases = [
      ['Usa python para la mediana', 'python_code', /\\"value\\":\\"3\\"|"value":"3"/],
      ['Resuelve la ecuación', 'math_calc', /\[2, 3\]/],
      [`Por favor, analiza ${data.id}: la suma de amount`, 'data_analysis', /\\"result\\":\\"0\.3\\"|"result":"0\.3"/],
      ['¿De cuánto son las dietas de viaje?', 'rag_retrieval', /politica\.md/],
      // The library's web tools, against agentio-fake-web.
      ['Por favor, busca en la web quién es Messi', 'web_search', /tavily/],
      ['¿Qué dice wikipedia de Bilbao?', 'wikipedia', /Bilbao/],
      ['¿Qué clima hace en Bilbao?', 'weather', /Bilbao/],
    ];
    for (const agent_type of ['tools', 'react', 'plan_execute']) {
      for (const [question, tool, found] of cases) {
        const done = await client.chat.completions.create({ model: 'asistente', messages: [{ role: 'user', content: question }], agent_type });
        const { content, reasoning_content: reasoning } = done.choices[0].message;
        const context = `${agent_type} ${tool}\ncontent: ${content}\nreasoning: ${reasoning}`;
        // The call and its result, not an error (✗), in the reasoning the server streams.
        assert.ok(reasoning.includes(`← ${tool}: `), context);
        assert.ok(!reasoning.includes('✗'), context);
        if (agent_type === 'tools') assert.match(content, found, context); // the model quotes the result
        if (agent_type === 'react') {
          assert.match(reasoning, found, context); // the observation
          assert.equal(content, 'Hecho con la herramienta.', context);
        }
        if (agent_type === 'plan_execute') assert.equal(content, 'Respuesta escrita con los resultados de los pasos.', context);
      }
    }
  } finally {
    await client.files.delete(data.id);
    await client.files.delete(policy.id);
  }
});

await check('openai: files.create, list, retrieve, content and delete', async () => {
  const csv = 'region,amount\nnorth,10\nsouth,20\n';
  const created = await client.files.create({ file: await toFile(Buffer.from(csv), 'ventas.csv'), purpose: 'user_data' });
  assert.match(created.id, /^file-/);
  assert.equal(created.object, 'file');
  assert.equal(created.bytes, csv.length);
  assert.equal(created.filename, 'ventas.csv');
  assert.equal(created.purpose, 'user_data');
  const listed = [];
  for await (const f of client.files.list({ purpose: 'user_data' })) listed.push(f.id);
  assert.ok(listed.includes(created.id), `listed: ${listed}`);
  const one = await client.files.retrieve(created.id);
  assert.equal(one.filename, 'ventas.csv');
  const content = await client.files.content(created.id);
  assert.equal(await content.text(), csv);
  if (args['other-token']) {
    const other = new OpenAI({ baseURL, apiKey: args['other-token'], maxRetries: 0 });
    await assert.rejects(other.files.retrieve(created.id), (e) => e instanceof OpenAI.NotFoundError);
    await assert.rejects(other.files.delete(created.id), (e) => e instanceof OpenAI.NotFoundError);
  }
  const deleted = await client.files.delete(created.id);
  assert.equal(deleted.deleted, true);
  await assert.rejects(client.files.retrieve(created.id), (e) => e instanceof OpenAI.NotFoundError);
});

await check('openai: files refused as the API refuses them', async () => {
  await assert.rejects(
    client.files.create({ file: await toFile(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), 'tool.pdf'), purpose: 'user_data' }),
    (e) => e instanceof OpenAI.APIError && e.status === 415 && /Supported types/.test(e.message));
  await assert.rejects(
    client.files.create({ file: await toFile(Buffer.alloc(120000, 0x61), 'big.txt'), purpose: 'user_data' }),
    (e) => e instanceof OpenAI.APIError && e.status === 413);
  await assert.rejects(
    client.files.create({ file: await toFile(Buffer.from('hola'), 'a.txt'), purpose: 'nope' }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'purpose');
});

const provider = createOpenAICompatible({ name: 'agentio', baseURL, apiKey: token, includeUsage: true });

await check('ai sdk: generateText', async () => {
  const r = await generateText({ model: provider('asistente'), prompt: 'Di hola', maxRetries: 0 });
  assert.equal(r.text, 'Hola desde agentio.');
  assert.equal(r.finishReason, 'stop');
});

await check('ai sdk: streamText', async () => {
  const r = streamText({ model: provider('asistente'), prompt: 'Di algo largo', maxRetries: 0 });
  let text = '';
  for await (const part of r.textStream) text += part;
  assert.equal(text, 'uno dos tres cuatro cinco seis siete ocho nueve diez');
  const usage = await r.usage;
  assert.equal(usage.outputTokens, 10);
});

await check('ai sdk: tools with execute, several steps', async () => {
  let called = null;
  const r = await generateText({
    model: provider('asistente'), maxRetries: 0, stopWhen: stepCountIs(3),
    prompt: '¿Qué tiempo hace en Madrid?',
    tools: {
      get_weather: tool({
        description: 'El tiempo de una ciudad',
        inputSchema: z.object({ city: z.string() }),
        execute: async (a) => { called = a; return 'soleado, 21 grados'; },
      }),
    },
  });
  assert.deepEqual(called, { city: 'Madrid' });
  assert.match(r.text, /soleado, 21 grados/);
});

const failed = results.filter(([, s]) => s !== 'ok');
console.log(`\n${results.length - failed.length}/${results.length} client checks passed`);
process.exit(failed.length ? 1 : 0);
