// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The official MCP TypeScript SDK's Client as a load generator: the twin of
// bench/mcp_client_bench.cpp (same options, same definition of a counted call,
// same output line), so bench/mcp_client_bench.sh compares the two clients
// against the very same servers. Connects (StdioClientTransport or
// StreamableHTTPClientTransport), then keeps CONCURRENCY `tools/call` requests
// in flight for SECONDS after a warm-up; a call counts when it completes inside
// the measured window, its latency taken from its own start.
//
//   node client_bench.mjs [--seconds S] [--warmup S] [--concurrency N] [--tool NAME]
//       [--arguments JSON] [--timeout-ms T] (--url URL | -- COMMAND ARGS...)
//
// Output, one line (CPU: this process's user + system time over the whole
// load, warm-up included, divided by every call made):
//   calls N rps R p50_ms A p99_ms B errors E cpu_us_per_call C protocol V
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const argv = process.argv.slice(2);
const opt = { seconds: 3, warmup: 0.5, concurrency: 1, tool: 'echo', arguments: '{"message":"hola"}',
  timeoutMs: 30000, cmd: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--') { opt.cmd = argv.slice(i + 1); break; }
  const v = argv[++i];
  if (a === '--seconds') opt.seconds = Number(v);
  else if (a === '--warmup') opt.warmup = Number(v);
  else if (a === '--concurrency') opt.concurrency = Math.max(1, Number(v));
  else if (a === '--tool') opt.tool = v;
  else if (a === '--arguments') opt.arguments = v;
  else if (a === '--timeout-ms') opt.timeoutMs = Number(v);
  else if (a === '--url') opt.url = v;
  else { console.error(`client_bench: unknown option ${a}`); process.exit(2); }
}
if (!opt.url === (opt.cmd.length === 0)) {
  console.error('client_bench: give either --url URL or -- COMMAND ARGS...');
  process.exit(2);
}

const args = JSON.parse(opt.arguments);
const client = new Client({ name: 'ts_client_bench', version: '1.0.0' });
// stderr to /dev/null, as agentio_mcp_client_bench does by default.
const transport = opt.url ? new StreamableHTTPClientTransport(new URL(opt.url))
  : new StdioClientTransport({ command: opt.cmd[0], args: opt.cmd.slice(1), env: { ...process.env }, stderr: 'ignore' });
// The negotiated revision, from the initialize answer (Protocol calls an onmessage set before connect).
let protocol = '';
transport.onmessage = (m) => { if (!protocol && m?.result?.protocolVersion) protocol = m.result.protocolVersion; };
await client.connect(transport);

const now = () => performance.now();
const began = now();
const warm = began + opt.warmup * 1000;
const end = warm + opt.seconds * 1000;
const latencies = [];
let errors = 0;
let completed = 0; // every call, warm-up included
let firstError;

async function worker() {
  while (now() < end) {
    const t0 = now();
    let ok = true;
    let why;
    try {
      const r = await client.callTool({ name: opt.tool, arguments: args }, undefined, { timeout: opt.timeoutMs });
      ok = !r.isError;
      if (!ok) why = JSON.stringify(r.content);
    } catch (e) {
      ok = false;
      why = String(e?.message ?? e);
    }
    const done = now();
    completed++;
    if (!ok && firstError === undefined) firstError = (why ?? '').slice(0, 160);
    if (done < warm || done > end) continue;
    if (!ok) errors++;
    latencies.push((done - t0) * 1000); // µs
  }
}

const cpuBefore = process.cpuUsage(); // the whole process: every thread
await Promise.all(Array.from({ length: opt.concurrency }, worker));
const cpu = process.cpuUsage(cpuBefore);
const cpuPerCall = (cpu.user + cpu.system) / Math.max(completed, 1);
latencies.sort((a, b) => a - b);
const pct = (p) => latencies.length === 0 ? 0
  : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] / 1000;
console.log(`calls ${latencies.length} rps ${(latencies.length / opt.seconds).toFixed(0)} ` +
  `p50_ms ${pct(0.5).toFixed(3)} p99_ms ${pct(0.99).toFixed(3)} errors ${errors} ` +
  `cpu_us_per_call ${cpuPerCall.toFixed(1)} protocol ${protocol}`);
if (errors) console.error(`client_bench: ${errors} failed calls; the first: ${firstError}`);

try {
  if (opt.url) await transport.terminateSession(); // DELETE: the server forgets the session
  await client.close();
} catch { /* the numbers are out */ }
process.exit(errors === 0 ? 0 : 1);
