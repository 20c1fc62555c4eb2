/**
 * The console's budgets (CONSOLE.md), measured in Debian's Chromium against a fresh `npm start`:
 * JavaScript and CSS of the first screen (gzip) and no request to another origin; `GET /` to an
 * interactive sign-in form; the search answer to 100 offers on screen; typing in an airport field
 * (every keystroke's next frame, long tasks, requests per word). `npm run bench -- --only console`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { search } from '../browser/steps.ts';
import {
  CHROMIUM,
  CHROMIUM_MISSING,
  newAgency,
  type Served,
  sessionCookie,
} from '../helpers/console-agents.ts';
import { startLocalServer } from '../helpers/local-server.ts';
import { median, percentile, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 15);
const BUDGET = { firstScreenKb: 50, interactiveMs: 300, offersMs: 100, keystrokeMs: 50 };

/** The JavaScript and CSS `/` loads before the sign-in form is interactive, and every origin asked. */
async function firstScreen(browser: Browser, server: Served) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const assets: { url: string; type: string; bytes: number; gzip: number }[] = [];
  const origins = new Set<string>();
  page.on('request', (request) => {
    origins.add(new URL(request.url()).origin);
  });
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const body = await response.body();
    assets.push({
      url: new URL(response.url()).pathname,
      type,
      bytes: body.length,
      gzip: gzipSync(body).length,
    });
  });
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await page.getByLabel('E-mail or phone').waitFor();
  await context.close();
  return { assets, origins: [...origins] };
}

/**
 * Milliseconds from navigation start to the sign-in field being editable, read in the page
 * (performance.now() once Playwright sees it editable), in a fresh context each run: no cache.
 */
async function timeToSignIn(browser: Browser, server: Served): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/`, { waitUntil: 'commit' });
  const field = page.getByLabel('E-mail or phone');
  await field.waitFor();
  while (!(await field.isEditable())) await page.waitForTimeout(1);
  const ms = (await page.evaluate('performance.now()')) as number;
  await context.close();
  return ms;
}

/** Counts offers (elements holding a Select button) and notes when 100 are in the DOM and painted. */
const WATCH_OFFERS = `(() => {
  const count = () => [...document.querySelectorAll('button')].filter((b) => /^\\W*select\\b/i.test(b.textContent ?? '')).length;
  window.__offers = {};
  new MutationObserver((_, observer) => {
    if (count() < 100) return;
    observer.disconnect();
    window.__offers.dom = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__offers.painted = performance.now(); }, 0));
  }).observe(document.body, { childList: true, subtree: true });
})()`;

/** One search answered with 100 offers: ms from the answer's last byte to 100 offers in the DOM and painted. */
async function hundredOffers(page: Page, server: Served) {
  await page.goto(`${server.url}/search`);
  await page.evaluate(WATCH_OFFERS);
  await search(page, { from: 'LHR', to: 'JFK' });
  await page.waitForFunction(
    () => (globalThis as unknown as { __offers: { painted?: number } }).__offers.painted !== undefined,
    undefined,
    { timeout: 20_000 },
  );
  return page.evaluate(`(() => {
    const answer = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/flights/search')).at(-1);
    return { dom: window.__offers.dom - answer.responseEnd, painted: window.__offers.painted - answer.responseEnd };
  })()`) as Promise<{ dom: number; painted: number }>;
}

/** Records, for every keydown, the time to the frame after it; and every long task. */
const WATCH_KEYS = `(() => {
  window.__keys = []; window.__long = [];
  document.addEventListener('keydown', (event) => {
    const at = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - at), 0));
  }, true);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
})()`;

/** Types `text` into the From field at a fast typist's pace (60 ms a key), counting airport lookups. */
async function typeAirport(page: Page, server: Served, text: string) {
  await page.goto(`${server.url}/search`);
  const from = page.getByRole('combobox', { name: /^\W*from\b/i });
  await from.waitFor();
  await page.evaluate(WATCH_KEYS);
  let lookups = 0;
  const count = (request: { url(): string }) => {
    if (request.url().endsWith('/api/airports/search')) lookups += 1;
  };
  page.on('request', count);
  await from.click();
  await page.keyboard.type(text, { delay: 60 });
  await page.getByRole('option').first().waitFor();
  page.off('request', count);
  const { keys, long } = (await page.evaluate('({ keys: window.__keys, long: window.__long })')) as {
    keys: number[];
    long: number[];
  };
  return { keys, long, lookups };
}

export async function consoleBudgets(bench: Bench): Promise<Section> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  bench.log('console: npm start and Chromium');
  const server = await startLocalServer(join(bench.work, 'console-data'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    // One load first: the server's first answers (cold module loads) are not the console's.
    await timeToSignIn(browser, server);
    const { assets, origins } = await firstScreen(browser, server);
    const gzipTotal = assets.reduce((sum, asset) => sum + asset.gzip, 0) / 1024;
    bench.log(`console: GET / to sign-in, ${RUNS} runs`);
    const interactive: number[] = [];
    for (let run = 0; run < RUNS; run++) interactive.push(await timeToSignIn(browser, server));

    const admin = await newAgency(server, 'Bench Admin');
    const context = await browser.newContext({ locale: 'en-US' });
    await context.addCookies([sessionCookie(server, admin)]);
    const page = await context.newPage();
    // The console asks for its own page size; the budget is about 100 offers, so the search asks for 100.
    await page.route('**/api/flights/search', (route) =>
      route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), limit: 100 }) }),
    );
    bench.log('console: 100 offers');
    const offers: { dom: number; painted: number }[] = [];
    for (let run = 0; run < Math.min(RUNS, 8); run++) offers.push(await hundredOffers(page, server));
    bench.log('console: typing in an airport field');
    const typed = await typeAirport(page, server, 'heathrow');
    const typedAgain = await typeAirport(page, server, 'new york');
    const keys = [...typed.keys, ...typedAgain.keys];
    const longTasks = [...typed.long, ...typedAgain.long];

    const first = table(
      ['asset', 'type', 'bytes', 'gzip (KB)'],
      assets.map((asset) => [asset.url, asset.type, asset.bytes, round(asset.gzip / 1024, 1)]),
    );
    const otherOrigins = origins.filter((origin) => origin !== server.url);
    const painted = offers.map((o) => o.painted);
    const rows = [
      [
        'first screen: JS + CSS, gzip',
        `${round(gzipTotal, 1)} KB in ${assets.length} files`,
        `≤ ${BUDGET.firstScreenKb} KB`,
        verdict(gzipTotal <= BUDGET.firstScreenKb),
      ],
      [
        'requests to another origin',
        otherOrigins.length ? otherOrigins.join(', ') : 'none',
        'none',
        verdict(otherOrigins.length === 0),
      ],
      [
        `GET / → interactive sign-in (fresh context, ${RUNS} runs)`,
        `p50 ${round(median(interactive), 0)} ms, p95 ${round(percentile(interactive, 95), 0)} ms`,
        `≤ ${BUDGET.interactiveMs} ms`,
        verdict(median(interactive) <= BUDGET.interactiveMs),
      ],
      [
        `search answer → 100 offers painted (${offers.length} runs)`,
        `p50 ${round(median(painted), 0)} ms (in the DOM: ${round(median(offers.map((o) => o.dom)), 0)} ms), max ${round(Math.max(...painted), 0)} ms`,
        `≤ ${BUDGET.offersMs} ms`,
        verdict(median(painted) <= BUDGET.offersMs),
      ],
      [
        `airport typing: keystroke → next frame (${keys.length} keys at 60 ms)`,
        `p50 ${round(median(keys), 0)} ms, p95 ${round(percentile(keys, 95), 0)} ms, max ${round(Math.max(...keys), 0)} ms; ${longTasks.length} long tasks; ${typed.lookups} and ${typedAgain.lookups} lookups for 8 keys`,
        `every key ≤ ${BUDGET.keystrokeMs} ms, no long task`,
        verdict(Math.max(...keys) <= BUDGET.keystrokeMs && longTasks.length === 0),
      ],
    ];
    return {
      title: 'Console budgets (CONSOLE.md)',
      lines: [
        `Chromium ${browser.version()} (Debian, headless) against a fresh \`npm start\` on this machine; each figure is read in the page (performance.now(), resource timing), so Playwright's own round trips are not in it. Gzip is Node's zlib at its default level.`,
        '',
        table(['measure', 'figure', 'budget', 'verdict'], rows),
        '',
        'First screen, file by file:',
        '',
        first,
      ],
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
