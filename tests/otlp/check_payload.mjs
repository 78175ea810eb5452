#!/usr/bin/env node
// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)
//
// Checks one OTLP/JSON ExportTraceServiceRequest with the decoder of
// otlp_json.mjs (the OpenTelemetry JS SDK's generated protobuf code).
//
//   node tests/otlp/check_payload.mjs [options] [FILE | -]     (stdin by default)
//     --spans                 print the accepted spans, one JSON object a line
//     --allow-unknown-fields  ignore unknown fields, as the OTLP spec requires of
//                             receivers (by default they are an error)
//     --no-semantic           skip the checks beyond the protobuf schema (ids not
//                             zero, a span name and kind, times, unique keys...)
//     --schema                print the schema read off the generated code
// Exit 0: accepted ("ok: N spans" on stdout unless --spans); 1: refused (the
// reason on stderr); 2: bad usage or an unreadable file.

import fs from 'node:fs';
import { decodeTraceRequest, exactNumbers, OtlpJsonError, schemaDump } from './otlp_json.mjs';

const options = { allowUnknownFields: false, semantic: true };
let printSpans = false;
let file = '-';
for (const arg of process.argv.slice(2)) {
    if (arg === '--spans') printSpans = true;
    else if (arg === '--allow-unknown-fields') options.allowUnknownFields = true;
    else if (arg === '--no-semantic') options.semantic = false;
    else if (arg === '--schema') {
        process.stdout.write(JSON.stringify(schemaDump(), null, 2) + '\n');
        process.exit(0);
    } else if (arg.startsWith('--')) {
        process.stderr.write(`check_payload: unknown option ${arg}\n`);
        process.exit(2);
    } else file = arg;
}

if (!exactNumbers) process.stderr.write('check_payload: this Node cannot read JSON numbers exactly; use Node >= 22\n');

let body;
try {
    body = fs.readFileSync(file === '-' ? 0 : file);
} catch (e) {
    process.stderr.write(`check_payload: ${e.message}\n`);
    process.exit(2);
}

try {
    const result = decodeTraceRequest(body, options);
    if (printSpans) {
        for (const span of result.spans) process.stdout.write(JSON.stringify(span) + '\n');
    } else {
        process.stdout.write(`ok: ${result.spans.length} spans\n`);
    }
    for (const path of result.ignoredFields) process.stderr.write(`check_payload: ignored unknown field ${path}\n`);
} catch (e) {
    if (!(e instanceof OtlpJsonError)) throw e;
    process.stderr.write(`invalid: ${e.message}\n`);
    process.exit(1);
}
