// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// The page of agentio-normativa in a real browser (Debian's Chromium driven by
// playwright-core) against the real server — its index built by the real
// `agentio-normativa ingest` from the Estatuto de los Trabajadores — and its
// agent pointed at the wire-faithful fake LLM, all on loopback. Screenshots go
// to --out.
//
//   node tests/browser_test.mjs --exe PATH/agentio-normativa --fake PATH/agentio-fake-llm --out DIR
//        [--web-dir DIR]   the page the servers serve; default: a copy of this folder's page files
//                          (not its node_modules nor its tests)
//        [--data DIR]      the sample data as scripts/data.sh puts it (the Estatuto in
//                          DIR/normativa/estatuto-trabajadores); default: <repo>/data
//   CHROMIUM                the browser (default /usr/bin/chromium)
//
// A question streams its tool steps and answer and ends with its sources; a
// reload restores the conversation, a follow-up goes to the same thread;
// "Nueva conversación" clears it; a failing model shows an alert; a server
// with RAG_API_KEYS asks for the key. On every screen axe-core's WCAG 2.2 A/AA
// and best-practice rules, a keyboard-only question, visible focus, and no
// Content-Security-Policy violation. Exit status 0 when every check passes;
// each check is printed.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = resolve(here, '..');
const repo = resolve(here, '../../../..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const exe = resolve(arg('exe', join(repo, 'build/release/reference_server/normativa/agentio-normativa')));
const fakeExe = resolve(arg('fake', join(repo, 'build/release/bench/agentio-fake-llm')));
const out = resolve(arg('out', join(repo, 'build/release/web-test-normativa')));
const lawDir = join(resolve(arg('data', join(repo, 'data'))), 'normativa/estatuto-trabajadores');
mkdirSync(out, { recursive: true });

let failures = 0;
let checks = 0;
const check = (ok, what, detail) => {
  checks++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok || detail === undefined ? '' : ': ' + detail}`);
  if (!ok) failures++;
};

for (const [what, path] of [['--exe', exe], ['--fake', fakeExe], ['the Estatuto (--data)', lawDir]]) {
  if (!existsSync(path)) {
    console.error(`browser_test: ${what} not found: ${path}`);
    process.exit(2);
  }
}

const work = mkdtempSync(join(tmpdir(), 'agentio-normativa-web-'));
const children = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

// The page as deployed: its own files only.
let webDir = arg('web-dir', '') && resolve(arg('web-dir', ''));
if (!webDir) {
  webDir = join(work, 'web');
  mkdirSync(webDir);
  for (const f of readdirSync(pageDir, { withFileTypes: true }))
    if (f.isFile() && ['.html', '.js', '.css', '.svg', '.ico', '.png'].includes(extname(f.name))) copyFileSync(join(pageDir, f.name), join(webDir, f.name));
}

// Starts a program and resolves with the first http:// URL it prints on stdout.
function start(cmd, args, env = {}) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(cmd, args, { cwd: work, env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let seen = '';
    let errors = '';
    let url = '';
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${seen}${errors}`)), 30000);
    child.stdout.on('data', (d) => {
      seen += d;
      const m = seen.match(/https?:\/\/[^\s]+/);
      if (m && !url) {
        clearTimeout(timer);
        url = m[0].replace(/\/$/, '');
        resolveUrl(url);
      }
    });
    child.stderr.on('data', (d) => (errors += d));
    child.on('exit', (code) => {
      if (!url) reject(new Error(`${cmd} exited with ${code}: ${errors}`));
    });
  });
}

const run = (cmd, args) =>
  new Promise((ok, fail) => {
    let errors = '';
    const c = spawn(cmd, args, { cwd: work, env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    c.stdout.on('data', (d) => (errors += d));
    c.stderr.on('data', (d) => (errors += d));
    c.on('exit', (code) => (code === 0 ? ok(errors) : fail(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${errors}`))));
  });

// No setting of the caller's may change what the servers do.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) =>
  !/^(RAG_|AGENT_|ANTHROPIC_|OPENAI_)/.test(k)));

// --- the index, the fake model, the servers -------------------------------------
const index = join(work, 'normativa.db');
const ingested = await run(exe, ['ingest', '--index', index, '--law', 'Estatuto de los Trabajadores', lawDir]);
check(/Ingeridos \d+ ficheros/.test(ingested), 'agentio-normativa ingest builds the index from the Estatuto', ingested);

const ANSWER_38 = 'Según el artículo 38 del Estatuto de los Trabajadores, las vacaciones anuales no pueden ser inferiores a treinta días naturales.';
const ANSWER_48 = 'El artículo 48 del Estatuto de los Trabajadores regula la suspensión con reserva de puesto de trabajo.\n\n' +
  'Al cesar la causa de la suspensión, **la persona trabajadora vuelve** a su puesto.\n\n' +
  'Texto, no marcado: <em>sin énfasis</em> <img src="x">.';
const scenarios = join(work, 'scenarios');
mkdirSync(scenarios);
writeFileSync(join(scenarios, 'web-normativa.json'), JSON.stringify({
  name: 'web-normativa',
  token_interval_ms: 70, // the steps and the text arrive slowly enough to be seen streaming
  turns: [
    [
      // Every attempt fails: the server gives up after its retries and sends `error`.
      { when_user_message_contains: 'fallo', text: 'nunca llega', faults: [{ kind: 'http_error', status: 500, times: 0 }] },
      { when_user_message_contains: 'artículo 48',
        tool_calls: [{ name: 'get_article', input: { article_number: '48', law_name: 'Estatuto de los Trabajadores' } }] },
      { tool_calls: [{ name: 'search_normativa', input: { query: 'vacaciones anuales' } }] },
    ],
    [
      { when_user_message_contains: 'artículo 48', when_last_tool_result_contains: 'Artículo 48', text: ANSWER_48 },
      { when_last_tool_result_contains: 'Artículo 38', text: ANSWER_38 },
      { text: 'No encontré el artículo en los fragmentos.' },
    ],
  ],
}));
const fakeUrl = await start(fakeExe, ['--scenarios', scenarios, '--port', '0']);

let stores = 0;
const serve = (env = {}) => start(exe, ['serve', '--port', '0', '--threads', '2', '--web-dir', webDir], {
  RAG_INDEX: index, RAG_STORE: join(work, `threads-${++stores}.db`), AGENT_PROVIDER: 'anthropic',
  ANTHROPIC_API_KEY: 'clave-de-prueba', ANTHROPIC_BASE_URL: fakeUrl, AGENT_MODEL: 'web-normativa', ...env,
});
const serverUrl = await serve();
const keyedUrl = await serve({ RAG_API_KEYS: 'secreta' });

// --- what the server says without a browser ---------------------------------------
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'";
{
  const home = await fetch(`${serverUrl}/`);
  const html = await home.text();
  check(home.status === 200 && home.headers.get('content-security-policy') === CSP, 'the page is served with the strict CSP',
    home.headers.get('content-security-policy'));
  check(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(html) && !/\sstyle=/i.test(html) && !/\son[a-z]+=/i.test(html),
    'index.html has no inline script, style or event handler');
  const script = await fetch(`${serverUrl}/app.js`);
  check(script.status === 200 && /javascript/.test(script.headers.get('content-type')), '/app.js is served as JavaScript',
    `${script.status} ${script.headers.get('content-type')}`);
  const health = await (await fetch(`${serverUrl}/health`)).json();
  check(health.status === 'ok' && health.index.chunks > 100 && health.index.laws.includes('Estatuto de los Trabajadores') &&
    health.llm === 'configured', '/health: the index holds the Estatuto, the model is configured', JSON.stringify(health));
}

// --- accessibility helpers -----------------------------------------------------
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
let audits = 0;
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
    const name = el.getAttribute('aria-label') || (el.labels?.[0]?.textContent ?? el.textContent).trim().replace(/\s+/g, ' ').slice(0, 60);
    return { tag: el.tagName.toLowerCase(), id: el.id, name, href: el.getAttribute('href'), visible };
  });

// Presses Tab (Shift+Tab when `back`) until `wanted(focus)`; records every stop in `trail`.
async function tabTo(p, wanted, { back = false, limit = 30, trail = [] } = {}) {
  for (let i = 0; i < limit; ++i) {
    await p.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(p);
    if (!f) continue;
    trail.push(f);
    if (wanted(f)) return f;
  }
  return null;
}

const settle = (p, ms = 150) => p.waitForTimeout(ms);

// --- the browser ---------------------------------------------------------------
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'es-ES' });
  // CSP violations, as the page itself sees them (the init script runs outside the page's CSP).
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || e.sample || '(inline)'}`));
  });
  const cspSeen = [];
  context.on('page', (p) => {
    p.on('pageerror', (e) => check(false, 'no page errors', e.message));
    p.on('console', (m) => {
      if (m.type() === 'error' && /Content.Security.Policy/i.test(m.text())) cspSeen.push(m.text());
    });
  });
  const cspCheck = async (p, what) => {
    const inPage = await p.evaluate(() => window.__cspViolations ?? []);
    const styled = await p.evaluate(() => document.querySelectorAll('[style]').length);
    check(inPage.length === 0 && cspSeen.length === 0 && styled === 0, `no CSP violation and no style attribute (${what})`,
      JSON.stringify([...inPage, ...cspSeen, `style attributes: ${styled}`]));
  };

  const page = await context.newPage();
  const posted = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/rag-agent')) posted.push({ body: r.postDataJSON(), headers: r.headers() });
  });
  const box = page.getByLabel('Su pregunta');
  const live = page.locator('.message.assistant.live');
  const answers = page.locator('.message.assistant:not(.live)');
  const alert = page.locator('[role=alert]');
  const storedThread = () => page.evaluate(() => localStorage.getItem('agentio-normativa.thread'));

  // 1. Arrival: the title, the question box with the focus, nothing else to say.
  await page.goto(`${serverUrl}/`);
  await page.waitForLoadState('networkidle');
  check(await page.title() === 'Consultas de normativa laboral' &&
    await page.locator('h1').textContent() === 'Consultas de normativa laboral', 'the title and heading: "Consultas de normativa laboral"');
  check((await focused(page))?.id === 'question', 'the question box has the focus on arrival');
  check(await page.getByRole('button', { name: 'Preguntar' }).isVisible() && await page.getByRole('button', { name: 'Nueva conversación' }).isVisible(),
    '"Preguntar" and "Nueva conversación" buttons');
  check((await alert.textContent()) === '' && !(await page.locator('#key-form').isVisible()), 'no alert and no key field at first');
  await audit(page, 'the empty page');
  await page.screenshot({ path: join(out, 'empty.png') });

  // 2. The keyboard alone: Shift+Tab from the box walks back to the skip link (every stop
  //    shows its focus), the skip link leads to the box, Shift+Enter is a new line, Enter sends.
  const trail = [];
  const onSkip = await tabTo(page, (f) => f.name === 'Ir a la pregunta', { back: true, trail, limit: 5 });
  check(onSkip !== null && trail.map((f) => f.name).join(' → ') === 'Nueva conversación → Ir a la pregunta',
    'Shift+Tab from the box: "Nueva conversación", then the skip link', trail.map((f) => f.name).join(' → '));
  check(trail.every((f) => f.visible), `every focus stop shows it (${trail.length} stops)`, trail.filter((f) => !f.visible).map((f) => f.name).join(', '));
  check(onSkip && await page.getByRole('link', { name: 'Ir a la pregunta' }).isVisible(), 'the skip link shows when focused');
  const forward = [];
  const onBox = await tabTo(page, (f) => f.id === 'question', { trail: forward, limit: 5 });
  check(onBox !== null && forward.map((f) => f.name).join(' → ') === 'Nueva conversación → Su pregunta',
    'Tab from the skip link: "Nueva conversación", then the question box', forward.map((f) => f.name).join(' → '));
  await tabTo(page, (f) => f.name === 'Ir a la pregunta', { back: true, limit: 5 });
  await page.keyboard.press('Enter');
  check((await focused(page))?.id === 'question', 'Enter on the skip link puts the focus in the question box');
  const question = '¿Cuántos días de vacaciones me tocan?';
  await page.keyboard.type('¿Cuántos días de');
  await page.keyboard.press('Shift+Enter');
  const withNewline = await box.inputValue();
  check(withNewline === '¿Cuántos días de\n' && await page.locator('.message').count() === 0, 'Shift+Enter adds a line without sending',
    JSON.stringify(withNewline));
  await page.keyboard.press('Backspace');
  await page.keyboard.type(' vacaciones me tocan?');
  await page.keyboard.press('Enter');
  await page.locator('.message.user').first().waitFor({ timeout: 5000 });
  check((await page.locator('.message.user .text').first().innerText()).trim() === question && await box.inputValue() === '',
    'Enter sends the question; the box empties');
  check(await page.getByRole('button', { name: 'Preguntar' }).isDisabled(), '"Preguntar" is disabled while the answer runs');

  // 3. The answer streams: the tool step as a pill, then the text, then the sources.
  const pill = page.locator('.message.assistant.live .pill', { hasText: 'Buscando normativa…' });
  const sawPill = await pill.waitFor({ timeout: 15000 }).then(() => true, () => false);
  check(sawPill, 'the pill "Buscando normativa…" shows while the agent searches');
  check(sawPill && (await page.locator('[role=status]').textContent()) === 'Buscando normativa…', 'the status region announces the step');
  // Text in the answer while it is still live (the class goes at `done`).
  const streamed = await page.waitForFunction(() => document.querySelector('.message.assistant.live .text')?.textContent.length > 0,
    null, { timeout: 15000, polling: 20 }).then(() => true, () => false);
  check(streamed, 'the answer text streams in while the answer is still running');
  check(await page.locator('.message.assistant.live .text[aria-live=polite][aria-busy=true]').count() === 1,
    'the answer is a polite live region, busy while it streams');
  await audit(page, 'an answer streaming');
  await page.screenshot({ path: join(out, 'streaming.png') });
  const first = answers.first();
  await first.locator('.sources').waitFor({ timeout: 30000 });
  check((await first.locator('.text').innerText()).trim() === ANSWER_38, 'the whole answer is shown, once',
    JSON.stringify(await first.locator('.text').innerText()));
  check(await page.locator('.pills:visible').count() === 0 && await page.locator('.pill').count() === 0, 'the pills are gone when done');
  check(await first.getByRole('heading', { name: 'Fuentes' }).count() === 1, 'a "Fuentes" heading');
  const sources = await first.locator('.sources li').allTextContents();
  check(sources.includes('Estatuto de los Trabajadores — Art. 38'), 'the sources list "Estatuto de los Trabajadores — Art. 38"', JSON.stringify(sources));
  check(new Set(sources).size === sources.length, 'each source once', JSON.stringify(sources));
  check((await first.locator('.credit').innerText()).trim() === 'Fuente: Agencia Estatal Boletín Oficial del Estado',
    'the credit "Fuente: Agencia Estatal Boletín Oficial del Estado"', await first.locator('.credit').innerText());
  check((await page.locator('[role=status]').textContent()) === 'Respuesta completa.', 'the status says the answer is complete');
  check((await focused(page))?.id === 'question' && await page.getByRole('button', { name: 'Preguntar' }).isEnabled(),
    'the focus stays in the question box, "Preguntar" enabled again');
  const thread = await storedThread();
  check(/^[0-9a-f-]{36}$/.test(thread ?? ''), 'the threadId is kept in localStorage', thread);
  const onServer = await (await fetch(`${serverUrl}/api/rag-agent/threads/${thread}`)).json();
  check(onServer.messages?.length === 2 && onServer.title === question, 'the server holds the thread (question and answer)', JSON.stringify(onServer).slice(0, 200));
  const toCredit = [];
  const onCredit = await tabTo(page, (f) => f.tag === 'a' && f.href === 'https://www.boe.es/', { back: true, trail: toCredit, limit: 4 });
  check(onCredit?.visible === true, 'Shift+Tab from the box reaches the BOE link, its focus shown', toCredit.map((f) => f.name).join(' → '));
  await audit(page, 'the answer with its sources');
  await page.screenshot({ path: join(out, 'answer.png'), fullPage: true });

  // 4. A reload restores the conversation from GET /api/rag-agent/threads/{id}.
  await page.reload();
  await answers.first().locator('.sources').waitFor({ timeout: 10000 });
  check(await page.locator('.message.user').count() === 1 && await answers.count() === 1 &&
    (await answers.first().locator('.text').innerText()).trim() === ANSWER_38 &&
    (await answers.first().locator('.sources li').allTextContents()).includes('Estatuto de los Trabajadores — Art. 38'),
  'after a reload the conversation is restored, with its sources');
  check((await answers.first().locator('.credit').innerText()).includes('Boletín Oficial del Estado'), 'and with the BOE credit');
  await audit(page, 'a restored conversation');

  // 5. A follow-up goes to the same thread: a get_article step, and 4 messages after another reload.
  await box.fill('¿Y qué dice el artículo 48?');
  await box.press('Enter');
  const articlePill = await page.locator('.message.assistant.live .pill', { hasText: 'Consultando artículo 48…' })
    .waitFor({ timeout: 15000 }).then(() => true, () => false);
  check(articlePill, 'the pill "Consultando artículo 48…" shows for get_article');
  await answers.nth(1).locator('.sources').waitFor({ timeout: 30000 });
  const followUp = posted.at(-1);
  check(followUp?.body?.threadId === thread && followUp?.body?.message === '¿Y qué dice el artículo 48?',
    'the follow-up is sent with the threadId', JSON.stringify(followUp?.body));
  const second = answers.nth(1);
  check((await second.locator('.text p').count()) === 3 && (await second.locator('.text strong').textContent()) === 'la persona trabajadora vuelve',
    'the second answer has its three paragraphs (and its bold words)', await second.locator('.text').innerHTML());
  check(await second.locator('.text em, .text img').count() === 0 &&
    (await second.locator('.text p').last().textContent()) === 'Texto, no marcado: <em>sin énfasis</em> <img src="x">.',
  'markup in the answer is shown as text, never parsed', await second.locator('.text p').last().innerHTML());
  check((await second.locator('.sources li').allTextContents()).includes('Estatuto de los Trabajadores — Art. 48'), 'its source is Art. 48');
  check(await storedThread() === thread, 'the same threadId is kept');
  await page.reload();
  await answers.nth(1).locator('.sources').waitFor({ timeout: 10000 });
  const restored = await page.locator('.message').count();
  check(restored === 4 && await page.locator('.message.user').count() === 2, 'after another reload the thread shows 4 messages', restored);
  await cspCheck(page, 'the conversation');

  // 6. A phone-sized window.
  await page.setViewportSize({ width: 390, height: 844 });
  await audit(page, 'the conversation at phone width');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, 'nothing overflows a phone-width window', overflow);
  await page.screenshot({ path: join(out, 'phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The dark colour scheme keeps its contrast.
  await page.emulateMedia({ colorScheme: 'dark' });
  await audit(page, 'the conversation in the dark colour scheme');
  await page.screenshot({ path: join(out, 'dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // 7. "Nueva conversación" clears it, from the keyboard.
  await page.getByRole('button', { name: 'Nueva conversación' }).focus();
  await page.keyboard.press('Enter');
  await settle(page);
  check(await page.locator('.message').count() === 0 && await storedThread() === null && await page.locator('#empty').isVisible(),
    '"Nueva conversación" empties the page and forgets the thread');
  check((await focused(page))?.id === 'question', 'and puts the focus in the question box');
  await page.reload();
  await settle(page, 300);
  check(await page.locator('.message').count() === 0, 'a reload after it stays empty');

  // 8. The model fails: the server sends `error` after its retries; the alert says why.
  await box.fill('Provoca un fallo, por favor');
  await box.press('Enter');
  const alerted = await page.waitForFunction(() => document.querySelector('[role=alert]')?.textContent.length > 0, null, { timeout: 30000 })
    .then(() => true, () => false);
  const alertText = await alert.textContent();
  check(alerted && alertText.includes('error (500)'), 'an `error` event shows in the role="alert" region', JSON.stringify(alertText));
  check(await alert.isVisible() && await page.locator('.message.assistant.failed').count() === 1 && await page.locator('.pill').count() === 0,
    'the alert is visible, the answer marked as not completed, no pills left');
  check(await page.getByRole('button', { name: 'Preguntar' }).isEnabled() && (await focused(page))?.id === 'question',
    'the box is ready for another question');
  await audit(page, 'an error');
  await page.screenshot({ path: join(out, 'error.png') });
  await box.fill('¿Cuántos días de vacaciones me tocan?');
  await box.press('Enter');
  await page.waitForFunction(() => document.querySelector('[role=alert]')?.textContent === '', null, { timeout: 5000 }).catch(() => {});
  check((await alert.textContent()) === '', 'the next question clears the alert');
  await answers.last().locator('.sources').waitFor({ timeout: 30000 });

  // 9. A stored thread the server does not know: forgotten silently.
  await page.evaluate(() => localStorage.setItem('agentio-normativa.thread', '00000000-0000-4000-8000-000000000000'));
  await page.reload();
  await page.waitForFunction(() => localStorage.getItem('agentio-normativa.thread') === null, null, { timeout: 5000 }).catch(() => {});
  check(await storedThread() === null && await page.locator('.message').count() === 0 && (await alert.textContent()) === '',
    'an unknown thread (404) is forgotten silently, the page starts afresh');
  await cspCheck(page, 'errors');

  // 10. A server with RAG_API_KEYS: the key field appears with the server's words, and works.
  const keyed = await context.newPage();
  const keyedPosts = [];
  keyed.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/rag-agent')) keyedPosts.push(r.headers()['x-api-key'] ?? null);
  });
  await keyed.goto(`${keyedUrl}/`);
  await keyed.waitForLoadState('networkidle');
  check(!(await keyed.locator('#key-form').isVisible()), 'no key field before the server asks for one');
  const keyedBox = keyed.getByLabel('Su pregunta');
  await keyedBox.fill(question);
  await keyedBox.press('Enter');
  const keyField = keyed.getByLabel('Clave de API');
  const asked = await keyField.waitFor({ timeout: 10000 }).then(() => true, () => false);
  check(asked && (await keyed.locator('#key-message').textContent()) === 'Falta una clave de API válida en la cabecera x-api-key',
    'a 401 shows the key field with the server\'s message', await keyed.locator('#key-message').textContent());
  check(await keyField.evaluate((el) => el === document.activeElement) && await keyField.getAttribute('type') === 'password',
    'the (password) key field gets the focus');
  check(await keyedBox.inputValue() === question && await keyed.locator('.message').count() === 0, 'the refused question goes back to the box');
  await audit(keyed, 'the API key field');
  await keyed.screenshot({ path: join(out, 'api-key.png') });
  await keyed.keyboard.type('incorrecta');
  await keyed.keyboard.press('Enter');
  await keyed.waitForFunction(() => !document.getElementById('key-form').hidden && document.activeElement?.id === 'api-key',
    null, { timeout: 10000 }).catch(() => {});
  await settle(keyed, 300);
  check(await keyField.isVisible() && keyedPosts.at(-1) === 'incorrecta', 'a wrong key is refused: the field comes back', JSON.stringify(keyedPosts));
  await keyed.keyboard.type('secreta');
  await keyed.keyboard.press('Enter');
  const keyedAnswer = keyed.locator('.message.assistant:not(.live) .sources');
  const answered = await keyedAnswer.waitFor({ timeout: 30000 }).then(() => true, () => false);
  check(answered && !(await keyField.isVisible()) && keyedPosts.at(-1) === 'secreta',
    'the right key: the field hides and the question is sent with x-api-key', JSON.stringify(keyedPosts));
  check(await keyed.evaluate(() => sessionStorage.getItem('agentio-normativa.api-key')) === 'secreta' &&
    await keyed.evaluate(() => localStorage.getItem('agentio-normativa.api-key')) === null, 'the key is kept in sessionStorage only');
  await keyed.reload();
  const keyedRestored = await keyed.locator('.message.assistant .sources').waitFor({ timeout: 10000 }).then(() => true, () => false);
  check(keyedRestored && await keyed.locator('.message').count() === 2 && !(await keyField.isVisible()),
    'after a reload the keyed conversation is restored with the stored key');
  await audit(keyed, 'a conversation on a server with keys');
  await cspCheck(keyed, 'the server with keys');
} finally {
  await browser.close();
}
console.log(failures ? `${failures} of ${checks} check(s) failed` : `browser: all ${checks} checks passed (${audits} accessibility audits); screenshots in ${out}`);
process.exit(failures ? 1 : 0);
