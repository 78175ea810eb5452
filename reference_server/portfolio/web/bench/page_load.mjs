// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Page load of the chat page in Debian's Chromium, as a person meets it:
// a cold load (new browser context: empty cache) and a warm one (reload in the
// same address in the same context: index.html revalidated, hashed assets from cache). Prints the
// medians as one JSON line. Used by bench/web_bench.sh.
//
//   node bench/page_load.mjs --url http://127.0.0.1:PORT/chat [--runs 20]
import { chromium } from 'playwright-core';

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const url = arg('url');
const runs = Number(arg('runs', '20'));
if (!url) throw new Error('--url is required');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Navigation timing and the bytes on the wire, read from the page itself.
const timings = (page) =>
  page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    return {
      ttfb: nav.responseStart - nav.startTime,
      dcl: nav.domContentLoadedEventEnd - nav.startTime,
      load: nav.loadEventEnd - nav.startTime,
      bytes: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
    };
  });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const cold = [];
const warm = [];
try {
  for (let i = 0; i < runs; ++i) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('#question').waitFor();
    const ready = Date.now() - started; // until the question box is on screen
    cold.push({ ...(await timings(page)), ready });
    const again = Date.now();
    // The same address again, in the same context (not reload(): the page has moved itself to /chat,
    // which a static server without the page's routes does not know).
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('#question').waitFor();
    warm.push({ ...(await timings(page)), ready: Date.now() - again });
    await context.close();
  }
} finally {
  await browser.close();
}
const summary = (xs) => Object.fromEntries(Object.keys(xs[0]).map((k) => [k, Math.round(median(xs.map((x) => x[k])) * 10) / 10]));
console.log(JSON.stringify({ url, runs, cold: summary(cold), warm: summary(warm) }));
