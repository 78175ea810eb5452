// The chat page in a real browser (Debian's Chromium driven by playwright-core)
// against the real agentio-portfolio server, its agent pointed at the
// wire-faithful fake LLM, all on loopback. Screenshots go to --out.
//
//   node tests/browser_test.mjs --exe PATH/agentio-portfolio --fake PATH/agentio-fake-llm --out DIR
//        [--web-dir DIR]  (the built page the server serves; default: its own default)
//        [--dist DIR]     (serve the built page from node instead, proxying /api to each server)
// Exit status 0 when every check passes; each check is printed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const exe = resolve(arg('exe', '../../build/release/reference_server/agentio-portfolio'));
const fakeExe = resolve(arg('fake', '../../build/release/bench/agentio-fake-llm'));
const out = resolve(arg('out', '../../build/web-test'));
const dist = arg('dist', '') && resolve(arg('dist', ''));
const webDir = arg('web-dir', '') && resolve(arg('web-dir', ''));
const pageArgs = webDir ? ['--web-dir', webDir] : [];
mkdirSync(out, { recursive: true });

let failures = 0;
const check = (ok, what, detail) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : ': ' + detail}`);
  if (!ok) failures++;
};

const work = mkdtempSync(join(tmpdir(), 'agentio-web-'));
const children = [];
const cleanup = () => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);

// Starts a program and resolves with the first http:// URL it prints on stdout.
function start(cmd, args, env = {}) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let seen = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${seen}${errors}`)), 20000);
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(/https?:\/\/[^\s]+/);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[0].replace(/\/$/, ''));
      }
    });
    child.stderr.on('data', (d) => (errors += d));
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${errors}`)));
  });
}

const run = (cmd, args) =>
  new Promise((ok, fail) => {
    const c = spawn(cmd, args, { stdio: 'ignore' });
    c.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(' ')}: ${code}`))));
  });

// --- the servers -------------------------------------------------------------
const db = join(work, 'portfolio.db');
await run(exe, ['init-db', db]);

// A first server only to learn a real portfolio_id for the scripted answer.
const probeUrl = await start(exe, ['serve', '--db', db, '--port', '0', '--threads', '1']);
const apiBase = probeUrl.replace(/\/api\/v1$/, '');
const first = await (await fetch(`${apiBase}/api/v1/datos-relevantes?limit=1`)).json();
const pid = first.data[0].portfolio_id;

const scenarios = join(work, 'scenarios');
mkdirSync(scenarios);
writeFileSync(join(scenarios, 'web-chat.json'), JSON.stringify({
  name: 'web-chat',
  token_interval_ms: 15, // visible streaming
  turns: [
    { text: 'Voy a contar las iniciativas por unidad.', tool_calls: [{ name: 'contar_iniciativas', input: { campo_agrupacion: 'unidad' } }] },
    {
      text: 'Ahora preparo un gráfico de barras.',
      tool_calls: [{ name: 'generar_grafico', input: {
        tipo: 'bar', titulo: 'Iniciativas por unidad', categorias: ['Distribución', 'Redes', 'Sistemas'],
        series: [{ nombre: 'Iniciativas', valores: [120, 98, 75] }], etiqueta_y: 'Número de iniciativas', unidad: 'numero' } }],
    },
    { text: `La unidad con más iniciativas es **Distribución**; por ejemplo **${pid}**.\n\n| iniciativa | nota |\n|---|---|\n| ${pid} | revisar |\n\n{{last_tool_result}}\n\n\`${pid}\` en código no es un enlace.\n\n**Supuestos aplicados:**\n- Todas las iniciativas.` },
  ],
}));
writeFileSync(join(scenarios, 'web-slow.json'), JSON.stringify({
  name: 'web-slow',
  token_interval_ms: 150,
  turns: [{ text: Array.from({ length: 200 }, (_, i) => `palabra${i}`).join(' ') }],
}));
const fakeUrl = await start(fakeExe, ['--scenarios', scenarios, '--port', '0']);

const agentEnv = (model) => ({ AGENT_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'clave-de-prueba', ANTHROPIC_BASE_URL: fakeUrl,
  AGENT_MODEL: model, CHART_OUTPUT_DIR: join(work, 'charts') });
const serve = (threads, env) => start(exe, ['serve', '--db', db, '--port', '0', '--threads', threads, ...pageArgs], env);
const serverUrl = await serve('2', agentEnv('web-chat'));
const slowUrl = await serve('2', agentEnv('web-slow'));
const bareUrl = await serve('1', { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
// With --dist: the built page from node, /api proxied to `backend` (SPA fallback to index.html).
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml' };
function pageServer(backend) {
  const target = new URL(backend);
  const server = createServer((req, res) => {
    if (req.url.startsWith('/api/')) {
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
      req.pipe(upstream);
      res.on('close', () => upstream.destroy()); // the browser left: so does the proxy
      return;
    }
    let file = join(dist, decodeURIComponent(req.url.split('?')[0]));
    if (!file.startsWith(dist) || !existsSync(file) || file.endsWith('/')) file = join(dist, 'index.html');
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${server.address().port}`)));
}
const pages = new Map();
for (const backend of [serverUrl, slowUrl, bareUrl]) pages.set(backend, dist ? await pageServer(backend) : backend);
const pageOf = (server) => pages.get(server);

// --- the browser ---------------------------------------------------------------
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES' });
  const page = await context.newPage();
  page.on('pageerror', (e) => check(false, 'no page errors', e.message));

  if (!dist) {
    // The server itself serves the page: SPA routes, hashed assets cached for good.
    const index = await fetch(`${serverUrl}/detail/${pid}`);
    check(index.status === 200 && index.headers.get('cache-control') === 'no-cache', 'the server answers page routes with index.html');
    const script = (await index.text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    const asset = script ? await fetch(`${serverUrl}${script}`) : null;
    check(asset?.headers.get('cache-control') === 'public, max-age=31536000, immutable' &&
      asset?.headers.get('content-type') === 'text/javascript; charset=utf-8', 'hashed assets are served with immutable caching');
  }

  // 1. A question: chunks stream, tool steps show live, the chart loads, the answer renders.
  await page.goto(`${pageOf(serverUrl)}/`);
  await page.waitForURL('**/chat', { timeout: 5000 }).catch(() => {});
  check(page.url().endsWith('/chat'), '/ leads to /chat', page.url());
  await page.getByLabel('Pregunta al asistente').fill('¿Cuántas iniciativas hay por unidad? Con un gráfico.');
  await page.keyboard.press('Enter');
  const live = page.locator('.message.assistant.live');
  await live.waitFor({ timeout: 10000 });
  await page.locator('.activity .tool-step').first().waitFor({ timeout: 15000 });
  check(await page.locator('.activity .tool-name').first().textContent() === 'contar_iniciativas', 'the live activity panel shows the first tool');
  // Chunks arrive while the answer is still being written.
  await page.waitForFunction(() => document.querySelector('.message.assistant.live .markdown')?.textContent.length > 5, null, { timeout: 15000 });
  check(await live.isVisible(), 'text streams into the live bubble');
  const answer = page.locator('.message.assistant:not(.live)').last();
  await answer.waitFor({ timeout: 30000 });
  await page.waitForFunction(() => { const i = document.querySelector('.message.assistant .chart img'); return i && i.complete && i.naturalWidth > 0; }, null, { timeout: 15000 });
  const natural = await page.locator('.chart img').first().evaluate((img) => img.naturalWidth);
  check(natural > 0, 'the chart image loaded', natural);
  check(await answer.locator('table').count() === 1, 'GFM table rendered');
  check(await answer.locator('summary', { hasText: 'Proceso de respuesta' }).count() === 1, '"Proceso de respuesta" accordion');
  check(await answer.locator('summary', { hasText: 'Razonamiento del asistente' }).count() === 1, '"Razonamiento del asistente" accordion');
  await answer.locator('summary', { hasText: 'Proceso de respuesta' }).click();
  check(await answer.locator('.tool-step').count() === 2, 'two tool steps with parameters and duration');
  const links = answer.locator(`a.pid-link[href="/detail/${pid}"]`);
  check(await links.count() === 2, 'portfolio_id linkified in bold and in the table', await links.count());
  check(await answer.locator('code', { hasText: pid }).locator('a').count() === 0, 'not in code');
  await page.screenshot({ path: join(out, 'chat.png'), fullPage: true });

  // 2. Follow the link and come back: the conversation is still there.
  await links.first().click();
  await page.waitForURL(`**/detail/${pid}`);
  await page.locator('.card').first().waitFor({ timeout: 10000 });
  check(await page.locator('h1 .pid').textContent() === pid, 'the detail page shows the initiative');
  check(await page.locator('.card').count() >= 1, 'with its tables in sections', await page.locator('.card').count());
  await page.screenshot({ path: join(out, 'detail.png') });
  await page.goBack();
  await page.waitForURL('**/chat');
  check(await page.locator('.message.user').count() === 1 && await page.locator('.message.assistant').count() === 1,
    'back on /chat the conversation is intact');

  // A phone-sized window on the same conversation.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(out, 'phone.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // 3. New conversation empties it.
  await page.getByRole('button', { name: 'Nueva conversación' }).click();
  check(await page.locator('.message').count() === 0, '"Nueva conversación" starts over');

  // 4. Stop a stream mid-way.
  const slow = await context.newPage();
  await slow.goto(`${pageOf(slowUrl)}/chat`);
  await slow.getByLabel('Pregunta al asistente').fill('Cuéntame algo largo');
  await slow.keyboard.press('Enter');
  await slow.waitForFunction(() => document.querySelector('.message.assistant.live .markdown')?.textContent.includes('palabra3'), null, { timeout: 15000 });
  await slow.getByRole('button', { name: 'Detener' }).click();
  await slow.locator('.message.assistant:not(.live)').waitFor({ timeout: 5000 });
  const stopped = await slow.locator('.message.assistant').last().textContent();
  check(stopped.includes('Respuesta detenida') && !stopped.includes('palabra199'), 'Detener stops the stream', stopped.slice(-80));
  check(await slow.getByRole('button', { name: 'Enviar' }).isVisible(), 'the input is ready again');

  // 5. No provider configured: the 503 notice says what to set.
  const bare = await context.newPage();
  await bare.goto(`${pageOf(bareUrl)}/chat`);
  await bare.getByLabel('Pregunta al asistente').fill('hola');
  await bare.keyboard.press('Enter');
  const notice = bare.locator('.notice');
  await notice.waitFor({ timeout: 10000 });
  check((await notice.textContent()).includes('ANTHROPIC_API_KEY'), 'the 503 notice names what to set');
  await bare.screenshot({ path: join(out, 'no-provider.png') });

} finally {
  await browser.close();
}
console.log(failures ? `${failures} check(s) failed` : 'browser: all checks passed');
process.exit(failures ? 1 : 0);
