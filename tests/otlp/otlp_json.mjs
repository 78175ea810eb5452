// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// A strict decoder of OTLP/JSON ExportTraceServiceRequest bodies, shared by
// receiver.mjs and check_payload.mjs.
//
// The schema is the OpenTelemetry JS SDK's: the protobufjs static code that
// @opentelemetry/otlp-transformer generated from opentelemetry-proto
// (build/src/generated/root.js; 0.216.0 is the last release that ships the
// trace messages there). Nothing here lists OTLP's fields by hand: the field
// names are the generated classes' prototype properties, and each field's
// protobuf type is read off the generated verify() and fromObject(). The JSON
// walk applies the proto3 JSON mapping with the deviations of the OTLP
// specification ("JSON Protobuf Encoding"):
//   - traceId, spanId (and parentSpanId) are hex strings, not base64;
//   - enum fields are integers, never enum names;
//   - keys are lowerCamelCase, the original proto field names are invalid;
//   - 64-bit integers are decimal strings or JSON numbers.
// Beyond the specification, and so that it catches an encoder's mistakes, it
// is stricter than a collector: unknown fields, null, 32-bit integers given as
// strings, integers written as 1.0 or 1e3, invalid UTF-8 and lone surrogates
// are rejected (allowUnknownFields restores the specification's "MUST ignore
// unknown fields"). The converted request then goes through the generated
// verify(), fromObject(), encode() and decode(), and every value must come
// back unchanged; the spans reported are read from the decoded protobuf.
// Semantic checks (non-zero ids, a span name, a kind, timestamps, unique
// attribute keys, service.name...) run unless semantic is false.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const rootPath = require.resolve('@opentelemetry/otlp-transformer/build/src/generated/root.js');
const root = require(rootPath);
// The protobufjs runtime the generated code itself uses.
const $protobuf = createRequire(rootPath)('protobufjs/minimal');
const Long = $protobuf.util.Long;
if (!Long) throw new Error('protobufjs has no Long support: cannot check 64-bit integers');

const otlp = root.opentelemetry.proto;
export const ExportTraceServiceRequest = otlp.collector.trace.v1.ExportTraceServiceRequest;
export const ExportTraceServiceResponse = otlp.collector.trace.v1.ExportTraceServiceResponse;
if (!ExportTraceServiceRequest || !ExportTraceServiceResponse) {
    throw new Error('@opentelemetry/otlp-transformer no longer ships the generated trace messages');
}

// Bytes fields that OTLP/JSON writes in hex, with their length in bytes.
const HEX_IDS = { traceId: 16, spanId: 8, parentSpanId: 8 };

export class OtlpJsonError extends Error {
    constructor(path, message) {
        super(path ? `${path}: ${message}` : message);
        this.path = path;
    }
}

function fail(path, message) {
    throw new OtlpJsonError(path, message);
}

// A JSON number with the text it was written as (JSON.parse's source access,
// Node >= 21), so that int64 values past 2^53 are read exactly.
class RawNumber {
    constructor(value, source) {
        this.value = value;
        this.source = source;
    }
}

export const exactNumbers = JSON.parse('1', (k, v, context) => context?.source) === '1';

export function parseJson(text) {
    return JSON.parse(text, (key, v, context) =>
        typeof v === 'number' ? new RawNumber(v, context?.source ?? null) : v);
}

function typeName(C) {
    return typeof C.getTypeUrl === 'function' ? C.getTypeUrl('').replace(/^\//, '') : C.name;
}

function describe(v) {
    if (v === null) return 'null';
    if (v instanceof RawNumber) return `the number ${v.source ?? v.value}`;
    if (Array.isArray(v)) return 'an array';
    if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
    if (typeof v === 'object') return 'an object';
    return `${typeof v} ${String(v)}`;
}

function isPlainObject(v) {
    return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

// ---- the schema, read off the generated classes -------------------------

const KINDS = {
    'string expected': 'string',
    'integer expected': 'int32',
    'integer|Long expected': 'int64',
    'boolean expected': 'bool',
    'buffer expected': 'bytes',
    'enum value expected': 'enum',
};

// The protobuf kind of field `name` of class C, from the message verify()
// gives for a value that no kind but double accepts.
function classify(C, name, repeated) {
    const err = C.verify({ [name]: repeated ? [1.5] : 1.5 });
    if (err === null) return 'double';
    if (err === `${name}.object expected`) return 'message';
    const prefix = `${name}: `;
    if (err.startsWith(prefix)) {
        const what = err.slice(prefix.length);
        if (what === 'array expected') return 'repeated';
        if (what === 'object expected') return 'map';
        const kind = KINDS[repeated ? what.replace(/\[\] expected$/, ' expected') : what];
        if (kind) return kind;
    }
    throw new Error(`cannot classify ${typeName(C)}.${name}: verify said ${JSON.stringify(err)}`);
}

const schemas = new Map();

function schemaOf(C) {
    let schema = schemas.get(C);
    if (schema) return schema;
    schema = new Map();
    for (const name of Object.keys(C.prototype)) {
        if (typeof C.prototype[name] === 'function') continue; // toJSON
        let repeated = false;
        let kind = classify(C, name, false);
        if (kind === 'repeated') {
            repeated = true;
            kind = classify(C, name, true);
        }
        if (kind === 'map') throw new Error(`${typeName(C)}.${name}: map fields are not supported`);
        const field = { name, kind, repeated };
        const one = (v) => ({ [name]: repeated ? [v] : v });
        const first = (m) => (repeated ? m[name][0] : m[name]);
        if (kind === 'message') {
            field.type = first(C.fromObject(one({}))).constructor;
        } else if (kind === 'int64') {
            // protobufjs reads fixed64 as signed; the proto type is unsigned,
            // and the bits on the wire are the same.
            const size = (v) => C.encode(C.fromObject(one(v))).finish().length;
            field.fixed = size(1) === size(2 ** 40);
            field.unsigned = field.fixed || first(C.fromObject(one('0'))).unsigned === true;
        } else if (kind === 'int32') {
            const back = first(C.decode(C.encode(C.fromObject(one(-1))).finish()));
            field.unsigned = back !== -1;
        }
        schema.set(name, field);
    }
    schemas.set(C, schema);
    return schema;
}

// ---- OTLP/JSON -> the object form of the generated code -------------------

const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function integerText(v, path, what) {
    if (!(v instanceof RawNumber)) return null;
    if (v.source === null) {
        // No source access: a JSON number past 2^53 has already lost digits.
        if (!Number.isSafeInteger(v.value)) {
            fail(path, `${what} ${v.value} is not an integer this Node can read exactly (run Node >= 22, or send 64-bit values as decimal strings)`);
        }
        return String(v.value);
    }
    if (!INTEGER.test(v.source)) fail(path, `${what} must be written as a plain integer, got ${v.source}`);
    return v.source;
}

function convertMessage(C, json, path, ctx) {
    if (!isPlainObject(json)) fail(path, `expected a JSON object (${typeName(C)}), got ${describe(json)}`);
    const schema = schemaOf(C);
    const out = {};
    for (const key of Object.keys(json)) {
        const p = path ? `${path}.${key}` : key;
        const field = schema.get(key);
        if (!field) {
            const camel = key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
            if (camel !== key && schema.has(camel)) {
                fail(p, `"${key}" is the proto field name: OTLP/JSON keys are lowerCamelCase ("${camel}")`);
            }
            if (ctx.allowUnknownFields) {
                ctx.ignoredFields.push(p);
                continue;
            }
            const near = [...schema.keys()].find((k) => k.toLowerCase() === key.toLowerCase());
            fail(p, `unknown field "${key}" in ${typeName(C)}${near ? ` (the field is "${near}")` : ''}; known: ${[...schema.keys()].join(', ')}`);
        }
        const v = json[key];
        if (v === null) fail(p, 'null is not accepted: leave the field out instead');
        if (field.repeated) {
            if (!Array.isArray(v)) fail(p, `expected an array, got ${describe(v)}`);
            out[key] = v.map((e, i) => convertValue(C, field, e, `${p}[${i}]`, ctx));
        } else {
            out[key] = convertValue(C, field, v, p, ctx);
        }
    }
    // The generated check of this message (its oneofs, its enums...); the
    // nested messages passed theirs already, so an error has its exact path.
    const err = C.verify(out);
    if (err) fail(path, `refused by the generated ${typeName(C)}.verify(): ${err}`);
    return out;
}

function convertValue(C, field, v, p, ctx) {
    switch (field.kind) {
        case 'message':
            return convertMessage(field.type, v, p, ctx);
        case 'string':
            if (typeof v !== 'string') fail(p, `expected a string, got ${describe(v)}`);
            if (!v.isWellFormed()) fail(p, 'the string holds a lone UTF-16 surrogate (a bad \\u escape)');
            return v;
        case 'bool':
            if (typeof v !== 'boolean') fail(p, `expected true or false, got ${describe(v)}`);
            return v;
        case 'double':
            if (v instanceof RawNumber) return v.value;
            if (v === 'NaN') return NaN;
            if (v === 'Infinity') return Infinity;
            if (v === '-Infinity') return -Infinity;
            fail(p, `expected a number (or "NaN", "Infinity", "-Infinity"), got ${describe(v)}`);
            break;
        case 'int32': {
            const text = integerText(v, p, 'a 32-bit integer');
            if (text === null) fail(p, `expected a JSON number (a 32-bit integer), got ${describe(v)}`);
            const n = BigInt(text);
            const [lo, hi] = field.unsigned ? [0n, 0xffffffffn] : [-0x80000000n, 0x7fffffffn];
            if (n < lo || n > hi) fail(p, `${text} is out of range for a ${field.unsigned ? 'uint32' : 'int32'}`);
            return Number(n);
        }
        case 'int64': {
            let text;
            if (typeof v === 'string') {
                if (!INTEGER.test(v)) fail(p, `expected a decimal integer string, got ${describe(v)}`);
                text = v;
            } else {
                text = integerText(v, p, 'a 64-bit integer');
                if (text === null) fail(p, `expected a decimal string or a JSON number (a 64-bit integer), got ${describe(v)}`);
            }
            const n = BigInt(text);
            const [lo, hi] = field.unsigned
                ? [0n, 0xffffffffffffffffn]
                : [-0x8000000000000000n, 0x7fffffffffffffffn];
            if (n < lo || n > hi) fail(p, `${text} is out of range for a ${field.unsigned ? 'uint64' : 'int64'}`);
            return Long.fromString(text, field.unsigned, 10);
        }
        case 'enum': {
            if (typeof v === 'string') {
                fail(p, `enum values are integers in OTLP/JSON, never names: got ${describe(v)}`);
            }
            const text = integerText(v, p, 'an enum value');
            if (text === null) fail(p, `expected an integer enum value, got ${describe(v)}`);
            const n = Number(text);
            if (C.verify({ [field.name]: field.repeated ? [n] : n }) !== null) {
                fail(p, `${text} is not a value of the enum`);
            }
            return n;
        }
        case 'bytes': {
            if (typeof v !== 'string') fail(p, `expected a string, got ${describe(v)}`);
            const size = HEX_IDS[field.name];
            if (size !== undefined) {
                if (v === '') return new Uint8Array(0);
                if (!/^[0-9a-fA-F]*$/.test(v) || v.length !== 2 * size) {
                    const hint = BASE64.test(v) && /[G-Zg-z+/=]/.test(v) ? ' (this looks like base64)' : '';
                    fail(p, `must be ${2 * size} hex digits (${size} bytes; OTLP/JSON writes ids in hex, not base64), got ${describe(v)}${hint}`);
                }
                return Uint8Array.from(Buffer.from(v, 'hex'));
            }
            if (!BASE64.test(v) && !BASE64URL.test(v)) fail(p, `expected base64, got ${describe(v)}`);
            return Uint8Array.from(Buffer.from(v, BASE64.test(v) ? 'base64' : 'base64url'));
        }
        default:
            throw new Error(`unhandled kind ${field.kind}`);
    }
}

// ---- the round trip -------------------------------------------------------

function sameValue(field, a, b) {
    switch (field.kind) {
        case 'int64': {
            const x = Long.fromValue(a);
            const y = Long.fromValue(b);
            return x.low === y.low && x.high === y.high;
        }
        case 'bytes':
            return Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
        case 'double':
            return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)) || a === b;
        default:
            return a === b;
    }
}

function show(field, v) {
    if (field.kind === 'int64') return Long.fromValue(v).toSigned().toString();
    if (field.kind === 'bytes') return Buffer.from(v).toString('hex');
    return JSON.stringify(v);
}

// Every value of `sent` must come back in `got`, the decoded message.
function compareMessage(C, sent, got, path) {
    const schema = schemaOf(C);
    for (const key of Object.keys(sent)) {
        const field = schema.get(key);
        const p = path ? `${path}.${key}` : key;
        const one = (a, b, q) => {
            if (field.kind === 'message') return compareMessage(field.type, a, b, q);
            if (!sameValue(field, a, b)) {
                fail(q, `${show(field, a)} did not survive protobuf encode/decode (decoded as ${show(field, b)})`);
            }
        };
        if (field.repeated) {
            const g = got[key] ?? [];
            if (g.length !== sent[key].length) fail(p, `${sent[key].length} elements sent, ${g.length} decoded`);
            sent[key].forEach((e, i) => one(e, g[i], `${p}[${i}]`));
        } else {
            const g = got[key];
            if (g === null || g === undefined) {
                // proto3 may leave a default scalar off the wire.
                if (field.kind === 'message' || !isDefaultScalar(field, sent[key])) {
                    fail(p, 'the value was lost in protobuf encode/decode');
                }
                continue;
            }
            one(sent[key], g, p);
        }
    }
}

function isDefaultScalar(field, v) {
    switch (field.kind) {
        case 'int64':
            return Long.fromValue(v).isZero();
        case 'bytes':
            return v.length === 0;
        case 'string':
            return v === '';
        case 'bool':
            return v === false;
        default:
            return v === 0;
    }
}

// ---- reading the decoded message ------------------------------------------

const hex = (b) => Buffer.from(b ?? []).toString('hex');
// The time fields are fixed64, which protobufjs hands back as signed Longs.
const u64 = (v) => (v === null || v === undefined ? '0' : Long.fromValue(v).toUnsigned().toString());

function anyValue(av) {
    if (!av) return null;
    switch (av.value) {
        case 'stringValue':
            return av.stringValue;
        case 'boolValue':
            return av.boolValue;
        case 'intValue': {
            const l = Long.fromValue(av.intValue);
            const n = l.toNumber();
            return Number.isSafeInteger(n) ? n : l.toString();
        }
        case 'doubleValue':
            return Number.isFinite(av.doubleValue) ? av.doubleValue : String(av.doubleValue);
        case 'bytesValue':
            return Buffer.from(av.bytesValue).toString('base64');
        case 'arrayValue':
            return (av.arrayValue.values ?? []).map(anyValue);
        case 'kvlistValue':
            return attributes(av.kvlistValue.values);
        default:
            return null;
    }
}

function attributes(list) {
    const out = {};
    for (const kv of list ?? []) out[kv.key ?? ''] = anyValue(kv.value);
    return out;
}

function flattenSpans(req) {
    const spans = [];
    for (const rs of req.resourceSpans ?? []) {
        const resourceAttributes = attributes(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
                spans.push({
                    traceId: hex(s.traceId),
                    spanId: hex(s.spanId),
                    parentSpanId: hex(s.parentSpanId),
                    name: s.name ?? '',
                    kind: s.kind ?? 0,
                    startTimeUnixNano: u64(s.startTimeUnixNano),
                    endTimeUnixNano: u64(s.endTimeUnixNano),
                    attributes: attributes(s.attributes),
                    status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
                    serviceName: resourceAttributes['service.name'] ?? null,
                    resourceAttributes,
                    scope: { name: ss.scope?.name ?? '', version: ss.scope?.version ?? '' },
                    traceState: s.traceState ?? '',
                    flags: s.flags ?? 0,
                    events: (s.events ?? []).map((e) => ({
                        name: e.name ?? '',
                        timeUnixNano: u64(e.timeUnixNano),
                        attributes: attributes(e.attributes),
                    })),
                    links: (s.links ?? []).map((l) => ({
                        traceId: hex(l.traceId),
                        spanId: hex(l.spanId),
                        attributes: attributes(l.attributes),
                    })),
                    droppedAttributesCount: s.droppedAttributesCount ?? 0,
                    droppedEventsCount: s.droppedEventsCount ?? 0,
                    droppedLinksCount: s.droppedLinksCount ?? 0,
                });
            }
        }
    }
    return spans;
}

// ---- semantic checks on the decoded message ---------------------------------

function semanticIssues(req) {
    const issues = [];
    const bad = (path, msg) => issues.push(`${path}: ${msg}`);
    const zero = (b) => !b || b.length === 0 || b.every((x) => x === 0);
    const checkAttrs = (list, path) => {
        const seen = new Set();
        (list ?? []).forEach((kv, i) => {
            const key = kv.key ?? '';
            if (key === '') bad(`${path}[${i}].key`, 'attribute keys must not be empty');
            else if (seen.has(key)) bad(`${path}[${i}].key`, `duplicate attribute key "${key}"`);
            seen.add(key);
            if (!kv.value || !kv.value.value) bad(`${path}[${i}].value`, `attribute "${key}" has no value`);
        });
    };
    const checkIds = (o, path, what) => {
        if (zero(o.traceId)) bad(`${path}.traceId`, `${what} needs a non-zero traceId`);
        if (zero(o.spanId)) bad(`${path}.spanId`, `${what} needs a non-zero spanId`);
    };
    (req.resourceSpans ?? []).forEach((rs, r) => {
        const rp = `resourceSpans[${r}]`;
        const svc = (rs.resource?.attributes ?? []).find((kv) => kv.key === 'service.name');
        if (!svc || svc.value?.value !== 'stringValue' || svc.value.stringValue === '') {
            bad(`${rp}.resource`, 'the resource has no service.name string attribute');
        }
        checkAttrs(rs.resource?.attributes, `${rp}.resource.attributes`);
        if (!(rs.scopeSpans ?? []).length) bad(rp, 'an empty ResourceSpans (senders SHOULD NOT send empty envelopes)');
        (rs.scopeSpans ?? []).forEach((ss, c) => {
            const sp = `${rp}.scopeSpans[${c}]`;
            if (!(ss.spans ?? []).length) bad(sp, 'an empty ScopeSpans (senders SHOULD NOT send empty envelopes)');
            checkAttrs(ss.scope?.attributes, `${sp}.scope.attributes`);
            (ss.spans ?? []).forEach((s, k) => {
                const p = `${sp}.spans[${k}]`;
                checkIds(s, p, 'a span');
                if (s.parentSpanId && s.parentSpanId.length && zero(s.parentSpanId)) {
                    bad(`${p}.parentSpanId`, 'an all-zero parentSpanId: leave it out for a root span');
                }
                if (!s.name) bad(`${p}.name`, 'the span has no name');
                if (!s.kind) bad(`${p}.kind`, 'kind 0 (SPAN_KIND_UNSPECIFIED): set it, 1 for INTERNAL');
                const start = Long.fromValue(s.startTimeUnixNano ?? 0).toUnsigned();
                const end = Long.fromValue(s.endTimeUnixNano ?? 0).toUnsigned();
                if (start.isZero()) bad(`${p}.startTimeUnixNano`, 'no start time');
                if (end.isZero()) bad(`${p}.endTimeUnixNano`, 'no end time');
                else if (end.lessThan(start)) bad(`${p}.endTimeUnixNano`, 'the span ends before it starts');
                if ((s.flags ?? 0) & ~0x3ff) bad(`${p}.flags`, 'bits 10-31 of flags are reserved and must be 0');
                checkAttrs(s.attributes, `${p}.attributes`);
                (s.events ?? []).forEach((e, i) => {
                    if (!e.name) bad(`${p}.events[${i}].name`, 'the event has no name');
                    if (Long.fromValue(e.timeUnixNano ?? 0).isZero()) bad(`${p}.events[${i}].timeUnixNano`, 'no event time');
                    checkAttrs(e.attributes, `${p}.events[${i}].attributes`);
                });
                (s.links ?? []).forEach((l, i) => {
                    checkIds(l, `${p}.links[${i}]`, 'a link');
                    checkAttrs(l.attributes, `${p}.links[${i}].attributes`);
                });
            });
        });
    });
    return issues;
}

// ---- the entry points -------------------------------------------------------

const utf8 = new TextDecoder('utf-8', { fatal: true });

// body: a Buffer/Uint8Array or a string. Throws OtlpJsonError on a payload a
// strict receiver refuses; returns the decoded message and its spans.
export function decodeTraceRequest(body, options = {}) {
    const ctx = {
        allowUnknownFields: options.allowUnknownFields === true,
        ignoredFields: [],
    };
    let text = body;
    if (typeof body !== 'string') {
        try {
            text = utf8.decode(body);
        } catch {
            fail('', 'the body is not valid UTF-8');
        }
    }
    let parsed;
    try {
        parsed = parseJson(text);
    } catch (e) {
        fail('', `invalid JSON: ${e.message}`);
    }
    const object = convertMessage(ExportTraceServiceRequest, parsed, '', ctx);
    const message = ExportTraceServiceRequest.fromObject(object);
    const wire = ExportTraceServiceRequest.encode(message).finish();
    const decoded = ExportTraceServiceRequest.decode(wire);
    compareMessage(ExportTraceServiceRequest, object, decoded, '');
    if (options.semantic !== false) {
        const issues = semanticIssues(decoded);
        if (issues.length) {
            const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
            fail('', issues.slice(0, 5).join('; ') + more);
        }
    }
    return {
        message: decoded,
        protobuf: wire,
        spans: flattenSpans(decoded),
        ignoredFields: ctx.ignoredFields,
    };
}

// The JSON body of a success: an ExportTraceServiceResponse, written as the
// collector's OTLP receiver writes it.
export const SUCCESS_BODY = '{"partialSuccess":{}}';

// The JSON body of an error: a google.rpc.Status (code 3 is INVALID_ARGUMENT).
export function statusBody(code, message) {
    return JSON.stringify({ code, message });
}

// The schema as read off the generated code, for `check_payload.mjs --schema`.
export function schemaDump(C = ExportTraceServiceRequest, out = {}) {
    const name = typeName(C);
    if (out[name]) return out;
    out[name] = {};
    for (const f of schemaOf(C).values()) {
        let t = f.kind === 'message' ? typeName(f.type) : f.kind;
        if (f.kind === 'int32' || f.kind === 'int64') t = (f.fixed ? 'fixed64' : (f.unsigned ? 'u' : '') + t);
        if (f.kind === 'bytes' && HEX_IDS[f.name]) t = `bytes (hex, ${HEX_IDS[f.name]})`;
        out[name][f.name] = f.repeated ? `repeated ${t}` : t;
    }
    for (const f of schemaOf(C).values()) if (f.kind === 'message') schemaDump(f.type, out);
    return out;
}
