// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The chat page in a real browser (Debian's Chromium driven by playwright-core)
// against the real agentio-portfolio server, its agent pointed at the
// wire-faithful fake LLM, all on loopback. Screenshots go to --out.
//
//   node tests/browser_test.mjs --exe PATH/agentio-portfolio --fake PATH/agentio-fake-llm --out DIR
//        [--web-dir DIR]  (the built page the server serves; default: its own default)
//        [--dist DIR]     (serve the built page from node instead, proxying /api to each server)
//
// Besides the features, it checks accessibility: axe-core's WCAG 2.2 A/AA and
// best-practice rules on every screen, a keyboard-only walk through a whole
// conversation, the focus after page changes, and no Content-Security-Policy
// violation. Exit status 0 when every check passes; each check is printed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const exe = resolve(arg('exe', '../../../build/release/reference_server/portfolio/agentio-portfolio'));
const fakeExe = resolve(arg('fake', '../../../build/release/bench/agentio-fake-llm'));
const out = resolve(arg('out', '../../../build/web-test'));
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

// What each server wrote on stderr, by its URL (the chat log lines).
const logs = new Map();

// Starts a program and resolves with the first http:// URL it prints on stdout.
// In the temporary folder, so nothing it writes by default lands in the tree.
function start(cmd, args, env = {}) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(cmd, args, { cwd: work, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let seen = '';
    let errors = '';
    let url = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${seen}${errors}`)), 20000);
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(/https?:\/\/[^\s]+/);
      if (m && !url) {
        clearTimeout(timer);
        url = m[0].replace(/\/$/, '');
        resolveUrl(url);
      }
    });
    child.stderr.on('data', (d) => {
      errors += d;
      if (url) logs.set(url, errors);
    });
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

// Each server keeps its conversations in a store of its own.
let stores = 0;
const ownStore = () => ({ AGENT_STORE: `sqlite:${join(work, `agent-${++stores}.db`)}` });

// A first server only to learn a real portfolio_id for the scripted answer.
const probeUrl = await start(exe, ['serve', '--db', db, '--port', '0', '--threads', '1'], ownStore());
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
    { text: `La unidad con más iniciativas es **Distribución**; por ejemplo **${pid}**.\n\n| iniciativa | nota |\n|---|---|\n| ${pid} | revisar |\n\n{{last_tool_result}}\n\n\`${pid}\` en código no es un enlace.\n\n**Supuestos aplicados:**\n- Todas las iniciativas.\n\nVea la [ficha de ${pid}](/detail/${pid}).` },
  ],
}));
writeFileSync(join(scenarios, 'web-slow.json'), JSON.stringify({
  name: 'web-slow',
  token_interval_ms: 150,
  turns: [{ text: Array.from({ length: 200 }, (_, i) => `palabra${i}`).join(' ') }],
}));
// A first round with a tool, then a second one long enough to reload the page in the middle of it.
const resumeWords = Array.from({ length: 150 }, (_, i) => `dato${i}`).join(' ');
writeFileSync(join(scenarios, 'web-resume.json'), JSON.stringify({
  name: 'web-resume',
  token_interval_ms: 80, // about 6 s of text
  turns: [
    { text: 'Consulto los datos.', tool_calls: [{ name: 'contar_iniciativas', input: { campo_agrupacion: 'unidad' } }] },
    { text: resumeWords },
  ],
}));
// The repository's canned conversation: round 0 calls contar_iniciativas, round 1 answers.
writeFileSync(join(scenarios, 'portfolio-two-rounds.json'),
  readFileSync(new URL('../../../../tests/fixtures/scenarios/portfolio-two-rounds.json', import.meta.url)));
const fakeUrl = await start(fakeExe, ['--scenarios', scenarios, '--port', '0']);

const agentEnv = (model) => ({ AGENT_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'clave-de-prueba', ANTHROPIC_BASE_URL: fakeUrl,
  AGENT_MODEL: model, CHART_OUTPUT_DIR: join(work, 'charts') });
const serve = (threads, env) =>
  start(exe, ['serve', '--db', db, '--port', '0', '--threads', threads, ...pageArgs], { ...env, ...ownStore() });
const serverUrl = await serve('2', agentEnv('web-chat'));
const slowUrl = await serve('2', agentEnv('web-slow'));
const bareUrl = await serve('1', { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
const resumeUrl = await serve('2', agentEnv('web-resume'));
// contar_iniciativas waits for the user's approval on this server only.
const approvalUrl = await serve('2', { ...agentEnv('portfolio-two-rounds'), AGENT_APPROVAL_TOOLS: 'contar_iniciativas' });
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
for (const backend of [serverUrl, slowUrl, bareUrl, resumeUrl, approvalUrl]) pages.set(backend, dist ? await pageServer(backend) : backend);
const pageOf = (server) => pages.get(server);


// --- accessibility helpers -----------------------------------------------------
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
let audits = 0;
// axe-core on the page as it is now: no violation of any impact.
async function audit(p, what) {
  // A string is evaluated by the DevTools protocol, which the page's CSP does not govern.
  if (!(await p.evaluate(() => Boolean(window.axe)))) await p.evaluate(axeSource);
  const r = await p.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), axeTags);
  audits++;
  const found = r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  check(found.length === 0, `axe: ${what} (${r.passes.length} rules pass)`, `\n      ${found.join('\n      ')}`);
}

// What has the keyboard focus, and whether it shows (outline or box-shadow).
const focused = (p) =>
  p.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const visible = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const copy = el.cloneNode(true);
    copy.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
    const name = el.getAttribute('aria-label') || copy.textContent.trim().replace(/\s+/g, ' ').slice(0, 60);
    return { tag: el.tagName.toLowerCase(), id: el.id, name, href: el.getAttribute('href'), visible };
  });

// Presses Tab (Shift+Tab when `back`) until `wanted(focus)`; records every stop in `trail`.
async function tabTo(p, wanted, { back = false, limit = 40, trail = [] } = {}) {
  for (let i = 0; i < limit; ++i) {
    await p.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(p);
    if (!f) continue;
    trail.push(f);
    if (wanted(f)) return f;
  }
  return null;
}

// --- the browser ---------------------------------------------------------------
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES' });
  context.on('page', (p) => {
    p.on('pageerror', (e) => check(false, 'no page errors', e.message));
    p.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy/i.test(m.text())) check(false, 'no CSP violations', m.text());
    });
  });
  const page = await context.newPage();

  if (!dist) {
    // The server itself serves the page: SPA routes, hashed assets cached for good.
    const index = await fetch(`${serverUrl}/detail/${pid}`);
    check(index.status === 200 && index.headers.get('cache-control') === 'no-cache', 'the server answers page routes with index.html');
    const script = (await index.text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    const asset = script ? await fetch(`${serverUrl}${script}`) : null;
    check(asset?.headers.get('cache-control') === 'public, max-age=31536000, immutable' &&
      asset?.headers.get('content-type') === 'text/javascript; charset=utf-8', 'hashed assets are served with immutable caching');
    const again = await fetch(`${serverUrl}/chat`, { headers: { 'if-none-match': index.headers.get('etag') ?? '' } });
    check(again.status === 304, 'revalidating the page costs a 304', again.status);
  }
  // What Chromium itself was sent for the bundle.
  const encodings = new Map();
  page.on('response', (r) => {
    if (/\/assets\/.*\.js$/.test(r.url())) encodings.set(r.url(), r.headers()['content-encoding']);
  });

  // 1. A question typed on the keyboard: Shift+Enter is a new line, Enter sends; chunks
  //    stream, tool steps show live, the chart loads, the answer renders.
  await page.goto(`${pageOf(serverUrl)}/`);
  await page.waitForURL('**/chat', { timeout: 5000 }).catch(() => {});
  check(page.url().endsWith('/chat'), '/ leads to /chat', page.url());
  if (!dist) check([...encodings.values()].every((e) => e === 'gzip') && encodings.size === 1, 'Chromium gets the bundle gzipped',
    JSON.stringify([...encodings]));
  check(await page.title() === 'Asistente · Portfolio Digital', 'the window title names the page', await page.title());
  check((await focused(page))?.id === 'question', 'the question box has the focus on arrival');
  await audit(page, 'the empty chat page');
  const question = '¿Cuántas iniciativas hay por unidad?\nCon un gráfico.';
  await page.keyboard.type('¿Cuántas iniciativas hay por unidad?');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('Con un gráfico.');
  const typed = await page.getByLabel('Pregunta al asistente').inputValue();
  check(typed === question && await page.locator('.message').count() === 0, 'Shift+Enter adds a line without sending', JSON.stringify(typed));
  await page.keyboard.press('Enter');
  const live = page.locator('.message.assistant.live');
  await live.waitFor({ timeout: 10000 });
  const asked = await page.locator('.message.user').innerText();
  check(asked.endsWith(question), 'Enter sends the question with its two lines', JSON.stringify(asked));
  await page.locator('.activity .tool-step').first().waitFor({ timeout: 15000 });
  check(await page.locator('.activity .tool-name').first().textContent() === 'contar_iniciativas', 'the live activity panel shows the first tool');
  // Read as it is announced: a second tool (the chart) may follow the first at once.
  const announced = await page.waitForFunction(() => {
    const said = document.querySelector('[role=status]')?.textContent ?? '';
    return /^Consulta \d+: (contar_iniciativas|generar_grafico)$/.test(said) ? said : null;
  }, null, { timeout: 5000 }).then((h) => h.jsonValue()).catch(() => null);
  check(announced !== null, 'a polite status tells screen readers which tool runs', String(announced));
  // Chunks arrive while the answer is still being written.
  await page.waitForFunction(() => document.querySelector('.message.assistant.live .markdown')?.textContent.length > 5, null, { timeout: 15000 });
  check(await live.isVisible(), 'text streams into the live bubble');
  await audit(page, 'an answer streaming');
  const answer = page.locator('.message.assistant:not(.live)').last();
  await answer.waitFor({ timeout: 30000 });
  await page.waitForFunction(() => { const i = document.querySelector('.message.assistant .chart img'); return i && i.complete && i.naturalWidth > 0; }, null, { timeout: 15000 });
  const natural = await page.locator('.chart img').first().evaluate((img) => img.naturalWidth);
  check(natural > 0, 'the chart image loaded', natural);
  await page.waitForTimeout(100); // the resize observer's turn
  const below = await page.locator('.messages-scroll').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  check(below < 2, 'the conversation follows the answer to its end, chart included', below);
  check(await answer.locator('table').count() === 1, 'GFM table rendered');
  check(await answer.locator('summary', { hasText: 'Proceso de respuesta' }).count() === 1, '"Proceso de respuesta" accordion');
  check(await answer.locator('summary', { hasText: 'Razonamiento del asistente' }).count() === 1, '"Razonamiento del asistente" accordion');
  const links = answer.locator(`a.pid-link[href="/detail/${pid}"]`);
  check(await links.count() === 2, 'portfolio_id linkified in bold and in the table', await links.count());
  check(await answer.locator('code', { hasText: pid }).locator('a').count() === 0, 'not in code');
  check(await answer.locator('a a').count() === 0 && await answer.locator('a', { hasText: `ficha de ${pid}` }).count() === 1,
    "a markdown link stays one link (its text holds an id, and it is not linkified inside)");
  check((await page.locator('[role=status]').first().textContent()) === 'Respuesta completa.', 'the status says the answer is complete');

  // 2. The keyboard alone: from the top of the page every stop shows its focus, the
  //    accordions open with Space and Enter, a link leads to the initiative.
  await page.evaluate(() => document.activeElement?.blur());
  const trail = [];
  const onReasoning = await tabTo(page, (f) => f.tag === 'summary' && f.name.startsWith('Razonamiento'), { trail });
  check(onReasoning !== null, 'Tab reaches "Razonamiento del asistente"', trail.map((f) => f.name).join(' → '));
  await page.keyboard.press('Space');
  const onProcess = await tabTo(page, (f) => f.tag === 'summary' && f.name.startsWith('Proceso'), { trail });
  await page.keyboard.press('Enter');
  check(onProcess !== null && await answer.locator('details[open]').count() === 2, 'Space and Enter open both accordions');
  check(await answer.locator('.tool-step').count() === 2, 'two tool steps with parameters and duration');
  const onLink = await tabTo(page, (f) => f.href === `/detail/${pid}`, { trail });
  const onBox = await tabTo(page, (f) => f.id === 'question', { trail });
  const order = trail.map((f) => f.name);
  check(onLink !== null && onBox !== null && ['Portfolio Digital', 'Asistente', 'Nueva conversación', 'Conversaciones', 'Conversación']
    .every((name, i) => order[i] === name), 'the tab order: header, toolbar, conversation, answer, question box', order.join(' → '));
  const hidden = trail.filter((f) => !f.visible);
  check(hidden.length === 0, `every focus stop shows it (${trail.length} stops)`, hidden.map((f) => f.name).join(', '));
  await audit(page, 'the answer with both accordions open');
  await page.setViewportSize({ width: 1280, height: 1250 });
  await page.screenshot({ path: join(out, 'chat.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // 3. Follow the link with the keyboard and come back: the conversation is still there.
  await tabTo(page, (f) => f.href === `/detail/${pid}`, { back: true });
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/detail/${pid}`);
  await page.locator('.card').first().waitFor({ timeout: 10000 });
  check(await page.locator('h1 .pid').textContent() === pid, 'the detail page shows the initiative');
  check(await page.locator('.card').count() >= 1, 'with its tables in sections', await page.locator('.card').count());
  check((await focused(page))?.tag === 'h1', "the focus moves to the new page's heading");
  check((await page.title()).startsWith(pid), 'the window title names the initiative', await page.title());
  await audit(page, 'the detail page');
  await page.screenshot({ path: join(out, 'detail.png') });
  const onBack = await tabTo(page, (f) => f.name.includes('Volver a la conversación'), { back: true, limit: 3 });
  check(onBack !== null, 'Shift+Tab from the heading reaches "Volver a la conversación"');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/chat');
  check(await page.locator('.message.user').count() === 1 && await page.locator('.message.assistant').count() === 1,
    'back on /chat the conversation is intact');
  check(await page.locator('.message.assistant details[open]').count() === 2, 'with the accordions as the reader left them');
  check((await focused(page))?.id === 'question', 'and the focus is in the question box');

  // A phone-sized window on the same conversation.
  await page.setViewportSize({ width: 390, height: 844 });
  await audit(page, 'the conversation at phone width');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, 'nothing overflows a phone-width window', overflow);
  await page.screenshot({ path: join(out, 'phone.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // 4. New conversation empties it.
  await page.getByRole('button', { name: 'Nueva conversación' }).click();
  check(await page.locator('.message').count() === 0, '"Nueva conversación" starts over');
  check((await focused(page))?.id === 'question', 'with the focus in the question box (the button disables itself)');

  // 4b. The conversation is stored: "Conversaciones" lists it with its date, and opens it again.
  const toggle = page.getByRole('button', { name: 'Conversaciones' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  const nav = page.getByRole('navigation', { name: 'Conversaciones' });
  const stored = nav.locator('.conversation-open', { hasText: '¿Cuántas iniciativas hay por unidad?' });
  await stored.waitFor({ timeout: 5000 });
  check(await toggle.getAttribute('aria-expanded') === 'true' && await nav.locator('li').count() === 1,
    'the list of conversations opens from the keyboard, with the one asked', await nav.locator('li').count());
  check(/\d{4}/.test(await stored.locator('time').textContent()), 'each conversation shows its date', await stored.locator('time').textContent());
  await audit(page, 'the list of conversations');
  await page.screenshot({ path: join(out, 'conversations.png') });
  await stored.focus();
  await page.keyboard.press('Enter');
  await page.locator('.message.assistant').first().waitFor({ timeout: 5000 });
  const reopened = page.locator('.message.assistant').first();
  check(await page.locator('.message.user').count() === 1 && (await page.locator('.message.user').innerText()).includes('Con un gráfico.') &&
    (await reopened.innerText()).includes('Distribución'), 'an old conversation opens with its question and answer');
  check(await reopened.locator('summary', { hasText: 'Proceso de respuesta · 2 consultas' }).count() === 1,
    'its tool calls are the steps of the answer', await reopened.locator('summary').allTextContents());
  check((await focused(page))?.id === 'question' && await nav.count() === 0, 'the list closes and the focus goes to the question box');
  await audit(page, 'a conversation opened from the list');

  // 4c. Deleting it: gone from the list and from the server, and the page starts over.
  await toggle.click();
  const remove = nav.getByRole('button', { name: /^Eliminar «¿Cuántas iniciativas hay por unidad\?/ });
  await remove.waitFor({ timeout: 5000 });
  await remove.focus();
  await page.keyboard.press('Enter');
  await nav.getByText('Aún no hay conversaciones guardadas.').waitFor({ timeout: 5000 }).catch(() => {});
  const left = await (await fetch(`${serverUrl}/api/v1/threads`)).json();
  check(await nav.locator('li').count() === 0 && left.threads.length === 0, '"Eliminar" deletes the conversation', JSON.stringify(left));
  check(await page.locator('.message').count() === 0 && (await page.locator('[role=status]').first().textContent()).includes('eliminada'),
    'the deleted conversation leaves the page, and the status says so');
  await toggle.click();

  // An unknown address.
  await page.goto(`${pageOf(serverUrl)}/no-existe`);
  check(await page.locator('h1').textContent() === 'Página no encontrada', 'an unknown page says so');
  await audit(page, 'the not-found page');

  // 5. Stop a stream mid-way, with the button and with Escape: the server cancels the run.
  const slow = await context.newPage();
  await slow.goto(`${pageOf(slowUrl)}/chat`);
  const cancelled = () => (logs.get(slowUrl) ?? '').match(/chat: cancelada tras \d+ ms \(el usuario la detuvo\)/g)?.length ?? 0;
  const cancels = [];
  slow.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/v1\/agent\/runs\/[^/]+\/cancel$/.test(r.url())) cancels.push(r.url());
  });
  for (const [i, how] of ['Detener', 'Escape'].entries()) {
    await slow.getByLabel('Pregunta al asistente').fill('Cuéntame algo largo');
    await slow.keyboard.press('Enter');
    await slow.waitForFunction(() => document.querySelector('.message.assistant.live .markdown')?.textContent.includes('palabra3'), null, { timeout: 15000 });
    const before = cancelled();
    const stoppedAt = Date.now();
    if (how === 'Escape') await slow.keyboard.press('Escape');
    else await slow.getByRole('button', { name: 'Detener' }).click();
    await slow.locator('.message.assistant:not(.live)').nth(i).waitFor({ timeout: 5000 });
    const stopped = await slow.locator('.message.assistant').last().textContent();
    check(stopped.includes('Respuesta detenida') && !stopped.includes('palabra199'), `${how} stops the stream`, stopped.slice(-80));
    while (cancelled() === before && Date.now() - stoppedAt < 5000) await new Promise((r) => setTimeout(r, 20));
    check(cancels.length === i + 1, `${how} asks the server to cancel the run (POST …/runs/{id}/cancel)`, cancels.length);
    check(cancelled() > before, `the server cancels the run (${how}; its log line came ${Date.now() - stoppedAt} ms later)`,
      (logs.get(slowUrl) ?? '').trim().split('\n').slice(-2).join(' / '));
    check((await focused(slow))?.id === 'question' && await slow.getByRole('button', { name: 'Enviar' }).isVisible(),
      'the question box is ready again, with the focus');
  }

  // 5b. F5 in the middle of an answer: the page reopens the conversation, reads the run's
  //     events again and follows it to its end, with nothing twice.
  const resume = await context.newPage();
  await resume.bringToFront(); // a page in the background gets no animation frames to poll with
  await resume.goto(`${pageOf(resumeUrl)}/chat`);
  await resume.getByLabel('Pregunta al asistente').fill('Dame los datos');
  await resume.keyboard.press('Enter');
  const streaming = await resume.waitForFunction(() => document.querySelector('.message.assistant.live .bubble > .markdown')
    ?.textContent.includes('dato5 '), null, { timeout: 15000, polling: 50 }).then(() => true, () => false);
  check(streaming, 'a slow answer streams', `${await resume.locator('.messages').innerText()} / ${logs.get(resumeUrl)}`);
  await resume.reload();
  await resume.locator('.message.assistant.live').waitFor({ timeout: 5000 }).catch(() => {});
  const wasLive = await resume.locator('.message.assistant.live').count();
  const partial = await resume.locator('.message.assistant.live .bubble > .markdown').textContent().catch(() => '');
  check(wasLive === 1 && await resume.locator('.message.user').count() === 1, 'after F5 the question is back and the answer streams on',
    JSON.stringify(partial.slice(-40)));
  await audit(resume, 'an answer followed again after a reload');
  const resumed = resume.locator('.message.assistant:not(.live)');
  await resumed.waitFor({ timeout: 20000 });
  const full = (await resumed.locator('.bubble > .markdown').textContent()).trim();
  check(full === resumeWords, 'the answer completes with its whole text exactly once', JSON.stringify(full.slice(0, 80)));
  check(await resumed.locator('summary', { hasText: 'Proceso de respuesta · 1 consulta' }).count() === 1,
    'with the tool step of its first round, once');
  check((logs.get(resumeUrl) ?? '').match(/chat: completada/g)?.length === 1, 'the server ran the answer once',
    (logs.get(resumeUrl) ?? '').trim());
  await resume.reload();
  await resume.locator('.message.assistant').waitFor({ timeout: 5000 });
  check((await resume.locator('.message.assistant .bubble > .markdown').textContent()).trim() === resumeWords &&
    await resume.locator('.message.user').count() === 1, 'a reload after the end shows the stored conversation');
  await resume.close();

  // 5c. A tool call that needs the user's approval: a prompt in the answer, with the focus;
  //     approved or rejected (with a reason) the answer goes on; after F5 the prompt is back.
  const approvals = await context.newPage();
  await approvals.bringToFront();
  await approvals.goto(`${pageOf(approvalUrl)}/chat`);
  const prompt = approvals.getByRole('group', { name: 'Se necesita su aprobación' });
  const finished = approvals.locator('.message.assistant:not(.live)');
  const inPrompt = () => approvals.evaluate(() => Boolean(document.activeElement?.closest('.approval')));
  const askForApproval = async (q) => {
    await approvals.getByLabel('Pregunta al asistente').fill(q);
    await approvals.keyboard.press('Enter');
    return prompt.waitFor({ timeout: 15000 }).then(() => true, () => false);
  };
  const threadRun = async () => {
    const id = await approvals.evaluate(() => sessionStorage.getItem('agentio.thread'));
    return (await (await fetch(`${approvalUrl}/api/v1/threads/${id}`)).json()).run?.status;
  };
  const approvalLog = () => (logs.get(approvalUrl) ?? '').trim().split('\n').slice(-3).join(' / ');

  // (a) Approved from the keyboard.
  check(await askForApproval('¿Cuántas iniciativas hay por estado?'), 'a call that needs approval shows a prompt', approvalLog());
  const asking = await prompt.innerText();
  check(asking.includes('El asistente quiere usar contar_iniciativas con campo_agrupacion = estado_de_la_iniciativa'),
    'the prompt names the tool and its arguments', JSON.stringify(asking));
  check(await inPrompt(), 'the focus moves to the prompt');
  check((await approvals.locator('[role=status]').first().textContent()).includes('aprobación para usar contar_iniciativas'),
    'the status region announces it');
  const box = approvals.getByLabel('Pregunta al asistente');
  check(await box.getAttribute('placeholder') === 'El asistente espera su decisión…' &&
    (await box.getAttribute('aria-describedby')).includes('question-waiting') &&
    await approvals.getByRole('button', { name: 'Detener' }).isVisible() && await approvals.getByRole('button', { name: 'Enviar' }).count() === 0,
  'the question box says the assistant waits for a decision, and "Detener" stays');
  check(await threadRun() === 'waiting', "the thread's run waits", await threadRun());
  await audit(approvals, 'a tool call waiting for approval');
  await approvals.screenshot({ path: join(out, 'approval.png') });
  const onApprove = await tabTo(approvals, (f) => f.name === 'Aprobar', { limit: 3 });
  check(onApprove?.visible === true, 'Tab from the prompt reaches "Aprobar", its focus shown');
  await approvals.keyboard.press('Enter');
  const approved = await finished.first().waitFor({ timeout: 20000 }).then(() => true, () => false);
  const approvedText = approved ? await finished.first().textContent() : '';
  check(approved && approvedText.includes('La herramienta devolvió') && await prompt.count() === 0,
    'approved, the answer completes in the same bubble', `${JSON.stringify(approvedText.slice(0, 120))} / ${approvalLog()}`);
  check(await finished.first().locator('summary', { hasText: 'Proceso de respuesta · 1 consulta' }).count() === 1 &&
    (await finished.first().locator('.tool-name').textContent()) === 'contar_iniciativas' &&
    !(await finished.first().locator('.tool-result').allTextContents()).join().includes('rechazó'), 'with the approved call as its step');
  check((await focused(approvals))?.id === 'question', 'the focus goes back to the question box at the end');

  // (b) Rejected with a reason, from the keyboard.
  await approvals.getByRole('button', { name: 'Nueva conversación' }).click();
  check(await askForApproval('¿Cuántas iniciativas hay por estado?'), 'a new question asks again');
  await tabTo(approvals, (f) => f.name === 'Rechazar', { limit: 4 });
  await approvals.keyboard.press('Enter');
  const reasonBox = approvals.getByLabel('Motivo (opcional)');
  check(await reasonBox.evaluate((el) => el === document.activeElement), '"Rechazar" opens a labelled reason field, with the focus');
  await audit(approvals, 'the rejection with its reason field');
  await approvals.keyboard.type('no hace falta contarlas');
  await approvals.keyboard.press('Enter');
  const rejected = await finished.first().waitFor({ timeout: 20000 }).then(() => true, () => false);
  const step = rejected ? (await finished.first().locator('.tool-result').allTextContents()).join(' | ') : '';
  check(step.includes("El usuario rechazó la llamada a 'contar_iniciativas': no hace falta contarlas"),
    'rejected, the step shows why', `${JSON.stringify(step)} / ${approvalLog()}`);
  check(rejected && (await finished.first().locator('.bubble > .markdown').textContent()).trim() !== '' &&
    await finished.first().locator('.message-error').count() === 0, 'and the answer completes');

  // (c) F5 while waiting: the prompt is back; approved then, the answer completes once.
  await approvals.getByRole('button', { name: 'Nueva conversación' }).click();
  check(await askForApproval('¿Y por estado, otra vez?'), 'a third question waits for approval');
  await approvals.reload();
  const back = await prompt.waitFor({ timeout: 10000 }).then(() => true, () => false);
  check(back && await approvals.locator('.message.user').count() === 1 && (await prompt.innerText()).includes('contar_iniciativas'),
    'after F5 the question and the prompt are back');
  check(await inPrompt(), 'with the focus on the prompt');
  await audit(approvals, 'the prompt after a reload');
  await prompt.getByRole('button', { name: 'Aprobar' }).click();
  const after = await finished.first().waitFor({ timeout: 20000 }).then(() => true, () => false);
  check(after && await finished.count() === 1 &&
    await finished.first().locator('summary', { hasText: 'Proceso de respuesta · 1 consulta' }).count() === 1,
  'approved after the reload, the answer completes with its step, once', approvalLog());

  // (d) "Detener" while waiting cancels the run.
  await approvals.getByRole('button', { name: 'Nueva conversación' }).click();
  check(await askForApproval('¿Cuántas por estado?'), 'a fourth question waits for approval');
  await approvals.getByRole('button', { name: 'Detener' }).click();
  check((await finished.first().textContent()).includes('Respuesta detenida') && await prompt.count() === 0,
    '"Detener" while waiting stops the answer');
  let status = await threadRun();
  for (let i = 0; i < 50 && status !== 'cancelled'; ++i) {
    await new Promise((r) => setTimeout(r, 100));
    status = await threadRun();
  }
  check(status === 'cancelled', 'and the server cancels the waiting run', status);
  await approvals.close();

  // 6. No provider configured: the 503 notice says what to set, and the question stays.
  const bare = await context.newPage();
  await bare.goto(`${pageOf(bareUrl)}/chat`);
  await bare.getByLabel('Pregunta al asistente').fill('hola');
  await bare.keyboard.press('Enter');
  const notice = bare.locator('.notice');
  await notice.waitFor({ timeout: 10000 });
  check((await notice.textContent()).includes('ANTHROPIC_API_KEY'), 'the 503 notice names what to set');
  await bare.waitForFunction(() => document.getElementById('question').value === 'hola', null, { timeout: 2000 }).catch(() => {});
  check(await bare.getByLabel('Pregunta al asistente').inputValue() === 'hola' && await bare.locator('.message').count() === 0,
    'the unanswered question goes back to the box');
  await audit(bare, 'the 503 notice');
  await bare.screenshot({ path: join(out, 'no-provider.png') });

  // A question over the server's limit is caught before sending, and kept.
  await bare.getByLabel('Pregunta al asistente').fill('x'.repeat(33000));
  check(await bare.locator('.input-error').isVisible() && await bare.getByRole('button', { name: 'Enviar' }).isDisabled(),
    'a question over 32 KiB is refused in place, with the reason');
  await audit(bare, 'a question too long');
} finally {
  await browser.close();
}
console.log(failures ? `${failures} check(s) failed` : `browser: all checks passed (${audits} accessibility audits)`);
process.exit(failures ? 1 : 0);
