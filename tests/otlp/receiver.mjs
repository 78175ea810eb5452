#!/usr/bin/env node
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// An OTLP/HTTP trace receiver for the tests of agentio's exporter: JSON bodies
// only, decoded strictly by otlp_json.mjs (the OpenTelemetry JS SDK's generated
// protobuf code), answered as an OpenTelemetry Collector answers.
//
//   node tests/otlp/receiver.mjs --out FILE [options]
//     --out FILE              append each accepted span to FILE, one JSON object
//                             a line, before the request is answered
//     --port N                listen on 127.0.0.1:N (default 0, any free port)
//     --fail N                answer the first N requests with --fail-status
//     --fail-status CODE      the status of those answers (default 500; 500 is
//                             not retryable in OTLP, 429/502/503/504 are)
//     --retry-after SECONDS   send Retry-After with those answers
//     --delay-ms N            wait N ms before each answer
//     --allow-unknown-fields  ignore unknown fields, as the OTLP spec requires of
//                             receivers (by default they are a 400)
//     --no-semantic           skip the checks beyond the protobuf schema
//     --max-body BYTES        413 past this size, after gunzip (default 20 MiB)
// The first line on stdout is "listening PORT". Every request is logged to
// stderr. SIGTERM or SIGINT closes the server and exits 0.
//
// Answers: 200 {"partialSuccess":{}} for an accepted ExportTraceServiceRequest;
// 400 {"code":3,"message":...} (a google.rpc.Status) for one it refuses;
// 404 for another path, 405 for another method, 415 for another content type,
// 413 for a body too large.

import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { decodeTraceRequest, exactNumbers, OtlpJsonError, statusBody, SUCCESS_BODY } from './otlp_json.mjs';

function usage(message) {
    process.stderr.write(`receiver: ${message}\n`);
    process.exit(2);
}

const opts = {
    out: null,
    port: 0,
    fail: 0,
    failStatus: 500,
    retryAfter: null,
    delayMs: 0,
    allowUnknownFields: false,
    semantic: true,
    maxBody: 20 * 1024 * 1024,
};
{
    const args = process.argv.slice(2);
    const count = (name, v) => {
        if (v === undefined || !/^[0-9]+$/.test(v)) usage(`${name} needs a non-negative integer`);
        return Number(v);
    };
    for (let i = 0; i < args.length; ++i) {
        const a = args[i];
        if (a === '--out') opts.out = args[++i] ?? usage('--out needs a file');
        else if (a === '--port') opts.port = count(a, args[++i]);
        else if (a === '--fail') opts.fail = count(a, args[++i]);
        else if (a === '--fail-status') opts.failStatus = count(a, args[++i]);
        else if (a === '--retry-after') opts.retryAfter = count(a, args[++i]);
        else if (a === '--delay-ms') opts.delayMs = count(a, args[++i]);
        else if (a === '--max-body') opts.maxBody = count(a, args[++i]);
        else if (a === '--allow-unknown-fields') opts.allowUnknownFields = true;
        else if (a === '--no-semantic') opts.semantic = false;
        else usage(`unknown argument ${a}`);
    }
    if (opts.failStatus < 400 || opts.failStatus > 599) usage('--fail-status must be a 4xx or 5xx code');
}
if (opts.out) fs.closeSync(fs.openSync(opts.out, 'a'));
if (!exactNumbers) log('this Node cannot read JSON numbers exactly: 64-bit numbers past 2^53 are refused; use Node >= 22');

let requests = 0;

function log(line) {
    process.stderr.write(`receiver: ${line}\n`);
}

function answer(req, res, status, body, headers = {}) {
    const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            ...headers,
        });
        res.end(body);
    };
    if (opts.delayMs > 0) setTimeout(send, opts.delayMs);
    else send();
}

// gRPC status codes used in the google.rpc.Status bodies.
const INVALID_ARGUMENT = 3;
const RESOURCE_EXHAUSTED = 8;
const INTERNAL = 13;
const UNAVAILABLE = 14;
const UNIMPLEMENTED = 12;

function refuse(req, res, status, code, message, headers) {
    log(`${req.method} ${req.url} -> ${status} ${message}`);
    answer(req, res, status, statusBody(code, message), headers);
}

function decompress(encoding, raw) {
    const e = (encoding ?? 'identity').trim().toLowerCase();
    const limit = { maxOutputLength: opts.maxBody };
    if (e === 'identity' || e === '') return raw;
    if (e === 'gzip' || e === 'x-gzip') return zlib.gunzipSync(raw, limit);
    if (e === 'deflate') return zlib.inflateSync(raw, limit);
    if (e === 'br') return zlib.brotliDecompressSync(raw, limit);
    throw new Error(`unsupported Content-Encoding ${encoding}`);
}

function handle(req, res, raw) {
    const n = ++requests;
    if (n <= opts.fail) {
        const headers = opts.retryAfter !== null ? { 'Retry-After': String(opts.retryAfter) } : {};
        const code = opts.failStatus === 429 ? RESOURCE_EXHAUSTED : opts.failStatus >= 502 ? UNAVAILABLE : INTERNAL;
        refuse(req, res, opts.failStatus, code, `injected failure ${n} of ${opts.fail}`, headers);
        return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') {
        refuse(req, res, 415, UNIMPLEMENTED, `unsupported content type ${JSON.stringify(req.headers['content-type'] ?? '')}: this receiver takes application/json`);
        return;
    }
    let body;
    try {
        body = decompress(req.headers['content-encoding'], raw);
    } catch (e) {
        const tooLarge = e.code === 'ERR_BUFFER_TOO_LARGE';
        refuse(req, res, tooLarge ? 413 : 400, INVALID_ARGUMENT, tooLarge ? 'the body is too large' : e.message);
        return;
    }
    let result;
    try {
        result = decodeTraceRequest(body, opts);
    } catch (e) {
        if (!(e instanceof OtlpJsonError)) throw e;
        refuse(req, res, 400, INVALID_ARGUMENT, e.message);
        return;
    }
    if (opts.out && result.spans.length) {
        fs.appendFileSync(opts.out, result.spans.map((s) => JSON.stringify(s) + '\n').join(''));
    }
    const ignored = result.ignoredFields.length ? `, ignored ${result.ignoredFields.join(' ')}` : '';
    log(`${req.method} ${req.url} -> 200 ${result.spans.length} spans${ignored}`);
    answer(req, res, 200, SUCCESS_BODY);
}

const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/v1/traces') {
        req.resume();
        refuse(req, res, 404, 5, `no such path ${path}: traces go to /v1/traces`);
        return;
    }
    if (req.method !== 'POST') {
        req.resume();
        refuse(req, res, 405, UNIMPLEMENTED, `method ${req.method} not allowed`, { Allow: 'POST' });
        return;
    }
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk) => {
        size += chunk.length;
        if (size > opts.maxBody) tooLarge = true;
        else chunks.push(chunk);
    });
    req.on('end', () => {
        if (tooLarge) {
            refuse(req, res, 413, INVALID_ARGUMENT, `the body is over ${opts.maxBody} bytes`);
            return;
        }
        try {
            handle(req, res, Buffer.concat(chunks));
        } catch (e) {
            log(`internal error: ${e.stack}`);
            if (!res.headersSent) answer(req, res, 500, statusBody(INTERNAL, `receiver bug: ${e.message}`));
        }
    });
    req.on('error', () => {});
});

server.listen(opts.port, '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port}\n`);
});

function stop(signal) {
    log(`${signal}: ${requests} requests, exiting`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 500).unref();
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
