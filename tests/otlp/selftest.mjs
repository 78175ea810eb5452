// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// The tests of the test tools themselves: the decoder accepts what the
// OpenTelemetry JS SDK's own JSON serializer writes and the OTLP examples, and
// refuses the mistakes an encoder makes; the receiver answers as a collector.
//   node --test tests/otlp/selftest.mjs      (Node >= 22: source scripts/node.sh)

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { context, trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decodeTraceRequest, exactNumbers, OtlpJsonError } from './otlp_json.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);

function valid() {
    return {
        resourceSpans: [{
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'agentio-test' } }] },
            scopeSpans: [{
                scope: { name: 'agentio', version: '0.1.0' },
                spans: [{
                    traceId: '5b8efff798038103d269b633813fc60c',
                    spanId: 'eee19b7ec3c1b174',
                    parentSpanId: 'eee19b7ec3c1b173',
                    name: 'chat gpt-4o',
                    kind: 3,
                    startTimeUnixNano: '1544712660000000000',
                    endTimeUnixNano: '1544712661000000000',
                    attributes: [
                        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
                        { key: 'gen_ai.usage.input_tokens', value: { intValue: '42' } },
                    ],
                    status: { code: 1 },
                }],
            }],
        }],
    };
}

const span0 = (d) => d.resourceSpans[0].scopeSpans[0].spans[0];

function refused(payload, pattern, options) {
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    assert.throws(() => decodeTraceRequest(body, options), (e) => {
        assert.ok(e instanceof OtlpJsonError, e.stack);
        assert.match(e.message, pattern);
        return true;
    });
}

test('this Node reads JSON numbers exactly', () => {
    assert.ok(exactNumbers, 'run with Node >= 22 (source scripts/node.sh)');
});

test('a hand-written request decodes to its spans', () => {
    const { spans } = decodeTraceRequest(JSON.stringify(valid()));
    assert.deepEqual(spans.length, 1);
    const s = spans[0];
    assert.equal(s.traceId, '5b8efff798038103d269b633813fc60c');
    assert.equal(s.parentSpanId, 'eee19b7ec3c1b173');
    assert.equal(s.kind, 3);
    assert.equal(s.startTimeUnixNano, '1544712660000000000');
    assert.deepEqual(s.attributes, { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 42 });
    assert.deepEqual(s.status, { code: 1, message: '' });
    assert.equal(s.serviceName, 'agentio-test');
});

test("opentelemetry-proto's example (upper-case hex, times as JSON numbers)", () => {
    const example = valid();
    Object.assign(span0(example), {
        traceId: '5B8EFFF798038103D269B633813FC60C',
        spanId: 'EEE19B7EC3C1B174',
        startTimeUnixNano: 'X',
        endTimeUnixNano: 'Y',
    });
    const text = JSON.stringify(example)
        .replace('"X"', '1544712660000000001')
        .replace('"Y"', '1544712661000000000');
    const [s] = decodeTraceRequest(text).spans;
    assert.equal(s.traceId, '5b8efff798038103d269b633813fc60c');
    assert.equal(s.startTimeUnixNano, '1544712660000000001'); // past 2^53, exact
});

test("the OpenTelemetry JS SDK's JSON serializer is accepted", () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'js-sdk' }),
        spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('lib', '1.2.3');
    const parent = tracer.startSpan('parent', { kind: 1 });
    const child = tracer.startSpan('child', {
        kind: 2,
        attributes: { i: 7, s: 'x', d: 1.5, b: true, a: ['p', 'q'], n: [1, 2] },
        links: [{ context: parent.spanContext(), attributes: { why: 'follows' } }],
    }, trace.setSpan(context.active(), parent));
    child.addEvent('ev', { k: 'v' });
    child.setStatus({ code: 2, message: 'bad' });
    child.end();
    parent.end();
    const finished = exporter.getFinishedSpans();
    const body = JsonTraceSerializer.serializeRequest(finished);
    const { spans } = decodeTraceRequest(Buffer.from(body));
    assert.equal(spans.length, 2);
    const c = spans.find((s) => s.name === 'child');
    const sdkChild = finished.find((s) => s.name === 'child');
    assert.equal(c.traceId, sdkChild.spanContext().traceId);
    assert.equal(c.spanId, sdkChild.spanContext().spanId);
    assert.equal(c.parentSpanId, parent.spanContext().spanId);
    assert.deepEqual(c.attributes, { i: 7, s: 'x', d: 1.5, b: true, a: ['p', 'q'], n: [1, 2] });
    assert.deepEqual(c.status, { code: 2, message: 'bad' });
    assert.equal(c.events[0].name, 'ev');
    assert.equal(c.links[0].spanId, parent.spanContext().spanId);
    assert.equal(c.serviceName, 'js-sdk');
    assert.deepEqual(c.scope, { name: 'lib', version: '1.2.3' });
});

test('an empty request is a success with no spans', () => {
    assert.deepEqual(decodeTraceRequest('{}').spans, []);
    assert.deepEqual(decodeTraceRequest('{"resourceSpans":[]}').spans, []);
});

test('the mistakes an encoder makes are refused, each with its path', () => {
    const with_ = (edit) => {
        const d = valid();
        edit(d, span0(d));
        return d;
    };
    const at = 'resourceSpans\\[0\\]\\.scopeSpans\\[0\\]\\.spans\\[0\\]';
    refused(with_((d, s) => { s.traceId = 'W47/95gDgQPSabYzgT/GDA=='; }), new RegExp(`${at}\\.traceId: must be 32 hex digits.*looks like base64`));
    refused(with_((d, s) => { s.spanId = 'eee19b7e'; }), /spanId: must be 16 hex digits/);
    refused(with_((d, s) => { s.parentSpanId = 'zzz19b7ec3c1b173'; }), /parentSpanId: must be 16 hex digits/);
    refused(with_((d, s) => { s.traceId = '0'.repeat(32); }), /non-zero traceId/);
    refused(with_((d, s) => { delete s.name; }), new RegExp(`${at}\\.name: the span has no name`));
    refused(with_((d, s) => { s.kind = 'SPAN_KIND_CLIENT'; }), /kind: enum values are integers/);
    refused(with_((d, s) => { s.kind = 9; }), /kind: 9 is not a value of the enum/);
    refused(with_((d, s) => { s.kind = 0; }), /SPAN_KIND_UNSPECIFIED/);
    refused(with_((d, s) => { s.status = { code: 'STATUS_CODE_ERROR' }; }), /status\.code: enum values are integers/);
    refused(with_((d, s) => { s.trace_id = s.traceId; delete s.traceId; }), /"trace_id" is the proto field name/);
    refused(with_((d, s) => { s.traceID = s.traceId; delete s.traceId; }), /unknown field "traceID".*the field is "traceId"/);
    refused(with_((d, s) => { s.extra = 1; }), /unknown field "extra"/);
    refused(with_((d, s) => { s.parentSpanId = null; }), /null is not accepted/);
    refused(with_((d, s) => { s.startTimeUnixNano = '1.5e18'; }), /expected a decimal integer string/);
    refused(with_((d, s) => { s.startTimeUnixNano = '-1'; }), /out of range for a uint64/);
    refused(with_((d, s) => { s.endTimeUnixNano = '1'; }), /ends before it starts/);
    refused(with_((d, s) => { s.droppedAttributesCount = -1; }), /out of range for a uint32/);
    refused(with_((d, s) => { s.droppedAttributesCount = '1'; }), /expected a JSON number/);
    refused(with_((d, s) => { s.attributes = { a: 'b' }; }), /attributes: expected an array/);
    refused(with_((d, s) => { s.attributes.push(s.attributes[0]); }), /duplicate attribute key/);
    refused(with_((d, s) => { s.attributes[1].value = { intValue: '4', stringValue: 'x' }; }), /attributes\[1\]\.value: .*multiple values/);
    refused(with_((d, s) => { s.attributes[1].value = { intValue: 4.2 }; }), /plain integer/);
    refused(with_((d, s) => { s.attributes[1].value = {}; }), /has no value/);
    refused(with_((d) => { d.resourceSpans[0].resource.attributes = []; }), /no service\.name/);
    refused(JSON.stringify(valid()).replace('"kind":3', '"kind":3.0'), /kind: an enum value must be written as a plain integer/);
    refused(JSON.stringify(valid()).replace('gpt-4o"', 'gpt-4o\\ud800"'), /lone UTF-16 surrogate/);
    refused(Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff]), Buffer.from('"}')]), /not valid UTF-8/);
    refused('{"resourceSpans":[', /invalid JSON/);
    refused('[]', /expected a JSON object/);
});

test('the relaxations: unknown fields as the spec says, no semantic checks', () => {
    const d = valid();
    span0(d).extra = 1;
    const r = decodeTraceRequest(JSON.stringify(d), { allowUnknownFields: true });
    assert.deepEqual(r.ignoredFields, ['resourceSpans[0].scopeSpans[0].spans[0].extra']);
    delete span0(d).extra;
    delete span0(d).name;
    assert.equal(decodeTraceRequest(JSON.stringify(d), { semantic: false }).spans[0].name, '');
});

// ---- the receiver ----------------------------------------------------------

async function startReceiver(args) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'otlp-receiver-'));
    const out = path.join(dir, 'spans.jsonl');
    const child = spawn(process.execPath, [path.join(here, 'receiver.mjs'), '--out', out, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    const [first] = await readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value]);
    const m = /^listening (\d+)$/.exec(first ?? '');
    assert.ok(m, `first line ${JSON.stringify(first)}; stderr: ${stderr}`);
    const url = `http://127.0.0.1:${m[1]}`;
    const spans = () => fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const stop = async () => {
        child.kill('SIGTERM');
        const r = await exited;
        fs.rmSync(dir, { recursive: true, force: true });
        return r;
    };
    return { url, spans, stop, stderr: () => stderr };
}

async function post(url, body, headers = { 'Content-Type': 'application/json' }) {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, type: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), body: await res.text() };
}

test('the receiver accepts, refuses, records and stops', async () => {
    const r = await startReceiver([]);
    try {
        const ok = await post(`${r.url}/v1/traces`, JSON.stringify(valid()));
        assert.deepEqual([ok.status, ok.type, ok.body], [200, 'application/json', '{"partialSuccess":{}}']);
        const gz = await post(`${r.url}/v1/traces`, zlib.gzipSync(JSON.stringify(valid())), {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Encoding': 'gzip',
        });
        assert.equal(gz.status, 200);
        const recorded = r.spans();
        assert.equal(recorded.length, 2);
        assert.equal(recorded[0].name, 'chat gpt-4o');
        assert.equal(recorded[0].serviceName, 'agentio-test');

        const d = valid();
        span0(d).traceId = 'W47/95gDgQPSabYzgT/GDA==';
        const bad = await post(`${r.url}/v1/traces`, JSON.stringify(d));
        assert.equal(bad.status, 400);
        const status = JSON.parse(bad.body);
        assert.equal(status.code, 3);
        assert.match(status.message, /traceId: must be 32 hex digits/);
        assert.equal(r.spans().length, 2, 'a refused request records nothing');

        assert.equal((await post(`${r.url}/v1/traces`, '{}', { 'Content-Type': 'application/x-protobuf' })).status, 415);
        assert.equal((await post(`${r.url}/v1/metrics`, '{}')).status, 404);
        assert.equal((await fetch(`${r.url}/v1/traces`)).status, 405);
    } finally {
        const { code, signal } = await r.stop();
        assert.deepEqual({ code, signal }, { code: 0, signal: null });
    }
});

test('the receiver fails the first N requests and delays its answers', async () => {
    const r = await startReceiver(['--fail', '2', '--delay-ms', '200']);
    try {
        const body = JSON.stringify(valid());
        const t0 = performance.now();
        const first = await post(`${r.url}/v1/traces`, body);
        assert.ok(performance.now() - t0 >= 190, 'the answer came before --delay-ms');
        assert.equal(first.status, 500);
        assert.match(JSON.parse(first.body).message, /injected failure 1 of 2/);
        assert.equal((await post(`${r.url}/v1/traces`, body)).status, 500);
        assert.equal(r.spans().length, 0);
        assert.equal((await post(`${r.url}/v1/traces`, body)).status, 200);
        assert.equal(r.spans().length, 1);
    } finally {
        await r.stop();
    }
    const t = await startReceiver(['--fail', '1', '--fail-status', '503', '--retry-after', '2']);
    try {
        const res = await post(`${t.url}/v1/traces`, JSON.stringify(valid()));
        assert.deepEqual([res.status, res.retryAfter], [503, '2']);
    } finally {
        await t.stop();
    }
});
