/**
 * The seat map's paint (issue 42): on Book, from the offer/services answer's last byte to a Boeing
 * 777-300ER's 360 seats in the DOM and the frame after them painted, in Chromium against `npm start`.
 * The panel's code is loaded first (a run with its chunk cached), so the figure is the map's own render.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { button, offers, search } from '../browser/steps.ts';
import {
  CHROMIUM,
  CHROMIUM_MISSING,
  inDays,
  newAgency,
  type Served,
  sessionCookie,
} from '../helpers/console-agents.ts';
import { startLocalServer } from '../helpers/local-server.ts';
import { watchPaint } from './console.ts';
import { median, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const RUNS = 8;
const SEATS = 350;
const BUDGET_MS = 50;

/** Counts seat buttons and notes when at least SEATS are in the DOM and the frame after is painted. */
const WATCH_SEATS = watchPaint(
  'seats',
  `document.querySelectorAll('button[aria-label^="Seat "]').length`,
  SEATS,
);

async function seatMapPaint(context: BrowserContext, server: Served) {
  const page = await context.newPage();
  await page.goto(`${server.url}/search`);
  await search(page, { from: 'LHR', to: 'SIN', date: inDays(12) });
  // A direct flight: one seat map, the 777's.
  await page.getByRole('radio', { name: /^direct only$/i }).check();
  await button(offers(page).first(), 'Select').click();
  await page.waitForURL((url) => url.pathname === '/book');
  await page.evaluate(WATCH_SEATS);
  await page.getByRole('button', { name: /^\W*choose bags and seats/i }).click();
  await page.waitForFunction(
    () => (globalThis as unknown as { __seats: { painted?: number } }).__seats.painted !== undefined,
    undefined,
    { timeout: 20_000 },
  );
  const timing = (await page.evaluate(`(() => {
    const answer = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/flights/offer/services')).at(-1);
    return { seats: window.__seats.count, dom: window.__seats.dom - answer.responseEnd, painted: window.__seats.painted - answer.responseEnd };
  })()`)) as { seats: number; dom: number; painted: number };
  await page.close();
  return timing;
}

export async function seatMap(bench: Bench): Promise<Section> {
  if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
  const server = await startLocalServer(join(bench.work, 'seat-map-data'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  try {
    const admin = await newAgency(server, 'Bench Seats');
    const context = await browser.newContext({ locale: 'en-US' });
    await context.addCookies([sessionCookie(server, admin)]);
    // One run first: the panel's chunk and the server's cold paths are not the map's render.
    await seatMapPaint(context, server);
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await seatMapPaint(context, server));
    const painted = runs.map((r) => r.painted);
    return {
      title: 'Seat map painted (Book, bags and seats)',
      lines: [
        `Chromium ${browser.version()} (headless) against a fresh \`npm start\`; LHR–SIN, a Boeing 777-300ER (every cabin drawn, ${runs[0]?.seats} seat buttons); from the offer/services answer's last byte (resource timing) to the seats in the DOM and the frame after them painted, read in the page. ${RUNS} runs after one warm-up.`,
        '',
        table(
          ['measure', 'figure', 'budget', 'verdict'],
          [
            [
              `services answer → ${runs[0]?.seats} seats painted`,
              `p50 ${round(median(painted), 0)} ms (in the DOM: ${round(median(runs.map((r) => r.dom)), 0)} ms), max ${round(Math.max(...painted), 0)} ms`,
              `≤ ${BUDGET_MS} ms for ${SEATS} seats`,
              verdict(median(painted) <= BUDGET_MS),
            ],
          ],
        ),
      ],
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
