// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The official MCP TypeScript SDK client (v1) against `agentio-portfolio mcp`:
// lists the tools and calls every one against a real REST server, checking the
// answers against that same REST API (a second path to the same database).
//
//   node portfolio_client_test.mjs --api http://127.0.0.1:P/api/v1 (--url http://.../mcp | --sse http://.../sse | -- CMD ARGS...)
// Exit status 0 when every check passes; each failure is printed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const argv = process.argv.slice(2);
const opt = { cmd: [] };
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--') { opt.cmd = argv.slice(i + 1); break; }
  else if (argv[i] === '--url') opt.url = argv[++i];
  else if (argv[i] === '--sse') opt.sse = argv[++i];
  else if (argv[i] === '--api') opt.api = argv[++i];
}

let failures = 0;
const check = (ok, what, detail) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : ': ' + detail}`);
  if (!ok) failures++;
};
const rest = async (path, body) => {
  const res = await fetch(opt.api + path, body === undefined ? {} :
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
};

const client = new Client({ name: 'agentio-test', version: '1.0.0' });
const transport = opt.url ? new StreamableHTTPClientTransport(new URL(opt.url))
  : opt.sse ? new SSEClientTransport(new URL(opt.sse))
  : new StdioClientTransport({ command: opt.cmd[0], args: opt.cmd.slice(1), env: { ...process.env }, stderr: 'ignore' });
await client.connect(transport);
const mode = opt.url ? 'http' : opt.sse ? 'sse' : 'stdio';
check(client.getServerVersion()?.name === 'portfolio-digital', `${mode}: serverInfo.name`);

// tools/list: the ten tools, Spanish, with the compile-time schemas.
const { tools } = await client.listTools();
const names = tools.map(t => t.name);
check(JSON.stringify(names) === JSON.stringify(['buscar_iniciativas', 'buscar_en_tabla', 'obtener_iniciativa',
  'obtener_documentos', 'contar_iniciativas', 'totalizar_importes', 'listar_tablas', 'describir_tabla',
  'obtener_valores_campo', 'generar_grafico']), `${mode}: the ten tools in order`, names.join(','));
const buscar = tools.find(t => t.name === 'buscar_iniciativas');
check(buscar?.inputSchema?.properties?.limite?.maximum === 500, `${mode}: limite maximum 500`);
check(buscar?.annotations?.readOnlyHint === true, `${mode}: readOnlyHint`);
check(/Buscar iniciativas en la vista consolidada/.test(buscar?.description ?? ''), `${mode}: Spanish description`);

const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  const text = r.content?.find(c => c.type === 'text')?.text ?? '';
  let json; try { json = JSON.parse(text); } catch { json = undefined; }
  return { r, text, json };
};

// Each tool, against the REST API's own answer.
const all = await rest('/datos-relevantes?limit=1');
const total = all.total;
const pid = all.data[0].portfolio_id;

let c = await call('buscar_iniciativas', { filtros: [{ field: 'estado_de_la_iniciativa', operator: 'eq', value: 'En Ejecución' }], limite: 5 });
const running = await rest('/datos-relevantes/search', { filters: [{ field: 'estado_de_la_iniciativa', operator: 'eq', value: 'En Ejecución' }], limit: 5 });
check(c.json?.total === running.total && c.json?.datos?.length === 5, `${mode}: buscar_iniciativas`, c.text.slice(0, 200));
check(c.r.structuredContent?.total === running.total, `${mode}: structuredContent`);

c = await call('buscar_en_tabla', { tabla: 'beneficios', limite: 3 });
const beneficios = await rest('/beneficios?limit=1');
check(c.json?.total === beneficios.total && c.json?.datos?.length === 3, `${mode}: buscar_en_tabla`, c.text.slice(0, 200));

c = await call('obtener_iniciativa', { portfolio_id: pid });
check(c.json?.portfolio_id === pid && c.json?.tablas?.datos_relevantes?.portfolio_id === pid, `${mode}: obtener_iniciativa`);

c = await call('obtener_documentos', { estado: 'Error', limite: 3 });
const errores = await rest('/documentos/search', { filters: [{ field: 'estado', operator: 'eq', value: 'Error' }], limit: 1 });
check(c.json?.total === errores.total, `${mode}: obtener_documentos`, c.text.slice(0, 200));

c = await call('contar_iniciativas', { campo_agrupacion: 'unidad' });
const byUnit = await rest('/datos-relevantes/aggregate', { group_by: 'unidad' });
check(c.json?.total_iniciativas === total && c.json?.grupos?.length === byUnit.groups.length &&
  c.json.grupos.every((g, i) => g.valor === byUnit.groups[i].valor && g.cantidad === byUnit.groups[i].count),
  `${mode}: contar_iniciativas`, c.text.slice(0, 200));

c = await call('totalizar_importes', { campo_importe: 'importe_2025' });
const sum = await rest('/datos-relevantes/aggregate', { metrics: [{ op: 'sum', field: 'importe_2025' }] });
check(Math.abs(c.json?.total_general - sum.groups[0].sum_importe_2025) < 0.01, `${mode}: totalizar_importes`, c.text);

c = await call('listar_tablas', {});
check(Array.isArray(c.json) && c.json.length === 26 && c.json[0].num_registros === total, `${mode}: listar_tablas`);

c = await call('describir_tabla', { tabla: 'hechos' });
check(c.json?.campos?.includes('partida_presupuestaria'), `${mode}: describir_tabla`);

c = await call('obtener_valores_campo', { tabla: 'datos_relevantes', campo: 'unidad' });
check(c.json?.total_distintos === byUnit.groups.length, `${mode}: obtener_valores_campo`);

c = await call('generar_grafico', { titulo: 'Prueba', categorias: ['A', 'B'], series: [{ nombre: 's', valores: [1, 2] }] });
const image = c.r.content?.find(x => x.type === 'image');
check(/^!\[Prueba\]\(\/api\/v1\/charts\/[0-9a-f]{32}\.png\)$/.test(c.text), `${mode}: generar_grafico markdown`, c.text);
check(image?.mimeType === 'image/png' && Buffer.from(image.data, 'base64').subarray(1, 4).toString() === 'PNG',
  `${mode}: generar_grafico image content`);

// Errors: the tools' Spanish messages as isError results; an unknown tool is a JSON-RPC error.
c = await call('buscar_en_tabla', { tabla: 'usuarios' });
check(c.r.isError === true && c.text === "Tabla 'usuarios' no disponible. Usa listar_tablas para ver las tablas disponibles.",
  `${mode}: unknown table`, c.text);
c = await call('buscar_iniciativas', { limite: 501 });
check(c.r.isError === true && c.text.includes('/limite'), `${mode}: invalid arguments`, c.text);
try { await client.callTool({ name: 'no_existe', arguments: {} }); check(false, `${mode}: unknown tool`); }
catch (e) { check(String(e.message).includes('-32602') || e.code === -32602, `${mode}: unknown tool is -32602`, e.message); }

await client.close();
console.log(failures ? `${failures} check(s) failed` : `${mode}: all checks passed`);
process.exit(failures ? 1 : 0);
