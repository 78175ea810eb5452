// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The benchmark's reference: one cheap tool, `echo`, on a server written with
// the official MCP TypeScript SDK (v1) the way its documentation shows, over
// stdio or stateful Streamable HTTP. bench/mcp_bench.sh drives it next to
// agentio's bench/mcp_echo_server.cpp with the same load generators.
//
//   node echo_server.mjs --stdio
//   node echo_server.mjs --port P        (prints "listening on http://127.0.0.1:P/mcp")
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const makeServer = () => {
  const server = new McpServer({ name: 'echo-ts', version: '1.0.0' });
  server.registerTool('echo', {
    description: 'Repite el texto',
    inputSchema: { text: z.string().min(1).describe('Texto') },
    annotations: { readOnlyHint: true },
  }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
};

const argv = process.argv.slice(2);
if (argv.includes('--stdio')) {
  await makeServer().connect(new StdioServerTransport());
} else {
  const port = Number(argv[argv.indexOf('--port') + 1] ?? 0);
  const transports = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id && transports.get(id);
    if (!transport && req.method === 'POST' && !id && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: sid => transports.set(sid, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await makeServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${http.address().port}/mcp`));
}
