/**
 * The console's budgets (docs/console.md), measured in Debian's Chromium against a fresh `npm start`:
 * JavaScript and CSS of the first screen (gzip) and no request to another origin; `GET /` to an
 * interactive sign-in form; the search answer to 100 offers on screen; typing in an airport field
 * (every keystroke's next frame, long tasks, requests per word). `npm run bench -- --only console`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { search } from '../browser/steps.ts';
import {
  CHROMIUM,
  CHROMIUM_MISSING,
  inDays,
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
 * Set before any page script runs (an init script, which the CSP does not govern): notes when the
 * field labelled `E-mail or phone` is in the DOM and enabled, and when the frame after it is painted.
 */
const WATCH_SIGN_IN = `(() => {
  const field = () => [...document.querySelectorAll('label')].find((l) => /^\\W*e-mail or phone\\b/i.test(l.textContent ?? ''))?.control;
  window.__signIn = {};
  new MutationObserver((_, observer) => {
    const input = field();
    if (!input || input.disabled) return;
    observer.disconnect();
    window.__signIn.ready = performance.now();
    performance.mark('sign-in-ready');
    requestAnimationFrame(() => setTimeout(() => { window.__signIn.painted = performance.now(); }, 0));
  }).observe(document, { childList: true, subtree: true });
})()`;

interface SignInTiming {
  /** The page's HTML fully received. */
  html: number;
  /** The script fully received. */
  script: number;
  /** `POST /api/auth/session` answered (401: signed out); NaN when the page asked none (no cookie). */
  session: number;
  /** The field in the DOM and enabled, then painted. */
  ready: number;
  painted: number;
}

/** One visit of `/` in a fresh context (no cache, no cookie), its milestones read in the page. */
async function timeToSignIn(browser: Browser, server: Served): Promise<SignInTiming> {
  const context = await browser.newContext();
  await context.addInitScript(WATCH_SIGN_IN);
  const page = await context.newPage();
  await page.goto(`${server.url}/`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (globalThis as unknown as { __signIn: { painted?: number } }).__signIn.painted !== undefined,
  );
  const timing = (await page.evaluate(`(() => {
    const end = (suffix) => performance.getEntriesByType('resource').find((e) => e.name.includes(suffix))?.responseEnd ?? NaN;
    return {
      html: performance.getEntriesByType('navigation')[0].responseEnd,
      script: end('/assets/main-'),
      session: end('/api/auth/session'),
      ready: window.__signIn.ready,
      painted: window.__signIn.painted,
    };
  })()`)) as SignInTiming;
  await context.close();
  return timing;
}

/**
 * One more visit of `/` in a fresh context, traced: the renderer's main-thread time (thread time, not
 * wall clock) from the navigation to the sign-in field in the DOM, the page's own work whatever the
 * machine's load; and its longest task.
 */
async function signInWork(browser: Browser, server: Served): Promise<{ total: number; longest: number }> {
  const context = await browser.newContext();
  await context.addInitScript(WATCH_SIGN_IN);
  const page = await context.newPage();
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  await page.goto(`${server.url}/`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => (globalThis as unknown as { __signIn: { painted?: number } }).__signIn.painted !== undefined,
  );
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] })
    .traceEvents;
  await context.close();
  const ready = events.find((e) => e.name === 'sign-in-ready');
  if (!ready) throw new Error('no sign-in mark in the trace');
  // A fresh context's page has a renderer of its own: its main thread's tasks are this visit's.
  const start = events.find((e) => e.name === 'navigationStart' && e.tid === ready.tid)?.ts ?? 0;
  const tasks = outermostTasks(
    events.filter((e) => e.tid === ready.tid && e.ph === 'X' && e.ts >= start && e.ts <= ready.ts),
  );
  const ms = tasks.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  return { total: ms.reduce((sum, t) => sum + t, 0), longest: Math.max(0, ...ms) };
}

/**
 * A page script: once `count` (an expression over the document) reaches `atLeast`, notes on
 * `window.__<name>` the count, when they were in the DOM (`dom`) and when the frame after them was
 * painted (`painted`), as `performance.now()` times.
 */
export const watchPaint = (name: string, count: string, atLeast: number) => `(() => {
  const count = () => ${count};
  window.__${name} = {};
  new MutationObserver((_, observer) => {
    if (count() < ${atLeast}) return;
    observer.disconnect();
    window.__${name}.count = count();
    window.__${name}.dom = performance.now();
    requestAnimationFrame(() => setTimeout(() => { window.__${name}.painted = performance.now(); }, 0));
  }).observe(document, { childList: true, subtree: true });
})()`;

/** Counts offers (elements holding a Select button) and notes when 100 are in the DOM and painted. */
const WATCH_OFFERS = watchPaint(
  'offers',
  `[...document.querySelectorAll('button')].filter((b) => /^\\W*select\\b/i.test(b.textContent ?? '')).length`,
  100,
);

/**
 * One return search answered with 100 offers, in a new tab (the search screen shows the tab's last
 * results again, which must not count): ms from the answer's last byte to 100 offers in the DOM and
 * painted.
 */
async function hundredOffers(context: BrowserContext, server: Served) {
  const page = await context.newPage();
  await page.goto(`${server.url}/search`);
  // A return trip: its outbound and inbound combinations give the 100 offers a one-way day lacks.
  await page.getByRole('button', { name: /^\W*search\b/i }).waitFor();
  await page.evaluate(WATCH_OFFERS);
  await search(page, { from: 'LHR', to: 'JFK', date: inDays(9), returnDate: inDays(16) });
  await page.waitForFunction(
    () => (globalThis as unknown as { __offers: { painted?: number } }).__offers.painted !== undefined,
    undefined,
    { timeout: 20_000 },
  );
  const timing = (await page.evaluate(`(() => {
    const answer = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/flights/search')).at(-1);
    return { dom: window.__offers.dom - answer.responseEnd, painted: window.__offers.painted - answer.responseEnd };
  })()`)) as { dom: number; painted: number };
  await page.close();
  return timing;
}

/** A thread's outermost tasks among `events` (a microtask checkpoint may run inside a task or on its own). */
function outermostTasks(events: readonly TraceEvent[]): TraceEvent[] {
  const outermost: TraceEvent[] = [];
  for (const e of events.filter((e) => e.cat === 'toplevel').sort((a, b) => a.ts - b.ts)) {
    const last = outermost.at(-1);
    if (!last || e.ts >= last.ts + (last.dur ?? 0)) outermost.push(e);
  }
  return outermost;
}

/** Main-thread work as thread time (the CPU the renderer itself spent, whatever else runs on the machine). */
interface FrameWork {
  /** Every task from the answer's last byte to the end of the first paint after the offers' render. */
  total: number;
  style: number;
  layout: number;
  paint: number;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
  args?: { data?: { url?: string; requestId?: string } };
}

/**
 * The same search as {@link hundredOffers}, traced: the renderer's thread time from the answer to the
 * first frame painted after the offers' render (the longest script task after the answer), by phase.
 * Wall-clock milliseconds on a shared machine carry its load; thread time carries only the page's work.
 */
async function hundredOffersWork(browser: Browser, context: BrowserContext, server: Served) {
  const page = await context.newPage();
  await page.goto(`${server.url}/search`);
  await page.getByRole('button', { name: /^\W*search\b/i }).waitFor();
  await page.evaluate(WATCH_OFFERS);
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
  await search(page, { from: 'LHR', to: 'JFK', date: inDays(9), returnDate: inDays(16) });
  await page.waitForFunction(
    () => (globalThis as unknown as { __offers: { painted?: number } }).__offers.painted !== undefined,
    undefined,
    { timeout: 20_000 },
  );
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] })
    .traceEvents;
  await page.close();
  const sent = events.find(
    (e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.endsWith('/api/flights/search'),
  );
  const answered = events.find(
    (e) => e.name === 'ResourceFinish' && e.args?.data?.requestId === sent?.args?.data?.requestId,
  );
  if (!answered) throw new Error('no search answer in the trace');
  const after = events.filter((e) => e.ph === 'X' && e.ts >= answered.ts);
  const render = after
    .filter((e) => e.name === 'FunctionCall')
    .reduce(
      (longest, e) => ((e.dur ?? 0) > (longest?.dur ?? 0) ? e : longest),
      undefined as TraceEvent | undefined,
    );
  const painted = render && after.find((e) => e.name === 'Paint' && e.tid === render.tid && e.ts > render.ts);
  if (!render || !painted) throw new Error('no render and paint after the search answer in the trace');
  const end = painted.ts + (painted.dur ?? 0);
  const frame = after.filter((e) => e.tid === render.tid && e.ts <= end);
  const sum = (...names: string[]) =>
    frame.filter((e) => names.includes(e.name)).reduce((ms, e) => ms + (e.tdur ?? e.dur ?? 0) / 1000, 0);
  const outermost = outermostTasks(frame);
  return {
    total: outermost.reduce((ms, e) => ms + (e.tdur ?? e.dur ?? 0) / 1000, 0),
    style: sum('UpdateLayoutTree'),
    layout: sum('Layout'),
    paint: sum('PrePaint', 'Paint'),
  } satisfies FrameWork;
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

interface Typed {
  keys: number[];
  long: number[];
  lookups: number;
}
const readKeys = (page: Page) =>
  page.evaluate('({ keys: window.__keys, long: window.__long })') as Promise<Omit<Typed, 'lookups'>>;

/** Types `text` into the From field at a fast typist's pace (60 ms a key), counting airport lookups. */
async function typeAirport(page: Page, server: Served, text: string): Promise<Typed> {
  await page.goto(`${server.url}/search`);
  const from = page.getByRole('combobox', { name: /^\W*from\b/i });
  await from.waitFor();
  await page.evaluate(WATCH_KEYS);
  let lookups = 0;
  const count = (request: { url(): string }) => {
    if (request.url().endsWith('/api/airports/search')) lookups += 1;
  };
  page.on('request', count);
  // The search form keeps its draft across visits: the field starts empty.
  await from.fill('');
  await page.keyboard.type(text, { delay: 60 });
  await page
    .getByRole('listbox', { name: /^\W*from\b/i })
    .getByRole('option')
    .first()
    .waitFor();
  page.off('request', count);
  return { ...(await readKeys(page)), lookups };
}

/** The floor: the same typing into a bare input on a blank page (no script of ours at all). */
async function typeBare(browser: Browser, text: string): Promise<Typed> {
  const page = await browser.newPage();
  await page.setContent('<label>From <input id="from"></label>');
  await page.evaluate(WATCH_KEYS);
  await page.focus('#from');
  await page.keyboard.type(text, { delay: 60 });
  const keys = await readKeys(page);
  await page.close();
  return { ...keys, lookups: 0 };
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
    const visits: SignInTiming[] = [];
    for (let run = 0; run < RUNS; run++) visits.push(await timeToSignIn(browser, server));
    const interactive = visits.map((visit) => visit.painted);
    const p50 = (pick: (visit: SignInTiming) => number) => round(median(visits.map(pick)), 0);
    const signInTraces: { total: number; longest: number }[] = [];
    for (let run = 0; run < 5; run++) signInTraces.push(await signInWork(browser, server));
    const traceP50 = (pick: (t: { total: number; longest: number }) => number) =>
      round(median(signInTraces.map(pick)), 0);

    const admin = await newAgency(server, 'Bench Admin');
    const context = await browser.newContext({ locale: 'en-US' });
    await context.addCookies([sessionCookie(server, admin)]);
    bench.log('console: 100 offers');
    const offers: { dom: number; painted: number }[] = [];
    for (let run = 0; run < Math.min(RUNS, 8); run++) offers.push(await hundredOffers(context, server));
    const work: FrameWork[] = [];
    for (let run = 0; run < 5; run++) work.push(await hundredOffersWork(browser, context, server));
    const workP50 = (pick: (w: FrameWork) => number) => round(median(work.map(pick)), 0);
    bench.log('console: typing in an airport field');
    const page = await context.newPage();
    const typed = await typeAirport(page, server, 'heathrow');
    const typedAgain = await typeAirport(page, server, 'new york');
    const keys = [...typed.keys, ...typedAgain.keys];
    const longTasks = [...typed.long, ...typedAgain.long];
    const bare = [
      ...(await typeBare(browser, 'heathrow')).keys,
      ...(await typeBare(browser, 'new york')).keys,
    ];

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
        `p50 ${round(median(interactive), 0)} ms, p95 ${round(percentile(interactive, 95), 0)} ms (p50 milestones: page ${p50((v) => v.html)}, script ${p50((v) => v.script)}, session answer ${visits.some((v) => !Number.isNaN(v.session)) ? p50((v) => v.session) : 'none (no cookie, no check)'}, field ${p50((v) => v.ready)} ms); the renderer's own work to the field (thread time, 5 traced runs, p50): ${traceP50((t) => t.total)} ms, longest task ${traceP50((t) => t.longest)} ms`,
        `≤ ${BUDGET.interactiveMs} ms`,
        verdict(median(interactive) <= BUDGET.interactiveMs),
      ],
      [
        `search answer → 100 offers painted (${offers.length} runs)`,
        `p50 ${round(median(painted), 0)} ms (in the DOM: ${round(median(offers.map((o) => o.dom)), 0)} ms), max ${round(Math.max(...painted), 0)} ms; the renderer's own work to that paint (thread time, ${work.length} traced runs, p50): ${workP50((w) => w.total)} ms, of it style ${workP50((w) => w.style)}, layout ${workP50((w) => w.layout)}, paint ${workP50((w) => w.paint)} ms`,
        `≤ ${BUDGET.offersMs} ms`,
        verdict(median(painted) <= BUDGET.offersMs),
      ],
      [
        `airport typing: keystroke → next frame (${keys.length} keys at 60 ms)`,
        `p50 ${round(median(keys), 0)} ms, p95 ${round(percentile(keys, 95), 0)} ms, max ${round(Math.max(...keys), 0)} ms (a bare input on a blank page, the floor: p50 ${round(median(bare), 0)}, p95 ${round(percentile(bare, 95), 0)}, max ${round(Math.max(...bare), 0)} ms); ${longTasks.length} long tasks; ${typed.lookups} and ${typedAgain.lookups} lookups for 8 keys`,
        `no long task; p95 within ${BUDGET.keystrokeMs} ms of the floor`,
        verdict(longTasks.length === 0 && percentile(keys, 95) - percentile(bare, 95) <= BUDGET.keystrokeMs),
      ],
    ];
    return {
      title: 'Console budgets (docs/console.md)',
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
