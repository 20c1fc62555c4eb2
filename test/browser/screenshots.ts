/**
 * `npm run screenshots`: the console's main screens, taken by Debian's Chromium (the browser the tests
 * drive) against a fresh `npm start`, written to docs/screenshots/<screen>.png for the README. Run it
 * after a change to a screen; a new agency makes every picture's data.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import {
  addAgent,
  api,
  CHROMIUM,
  CHROMIUM_MISSING,
  newAgency,
  sessionCookie,
} from '../helpers/console-agents.ts';
import { newDataDir, startLocalServer } from '../helpers/local-server.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { button, fillContact, fillPassenger, openBooking, search, shownPnr } from './steps.ts';

const out = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
if (!existsSync(CHROMIUM)) throw new Error(CHROMIUM_MISSING);
mkdirSync(out, { recursive: true });

const server = await startLocalServer(newDataDir());
const receiver = await startReceiver();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
const viewport = { width: 1280, height: 800 };
const shot = async (page: Page, name: string) => {
  // No caret or countdown mid-change in the picture: the page settles first.
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(out, `${name}.png`), animations: 'disabled', caret: 'hide' });
  process.stdout.write(`docs/screenshots/${name}.png\n`);
};

try {
  const signedOut = await browser.newPage({ viewport, locale: 'en-GB' });
  await signedOut.goto(`${server.url}/sign-in`);
  await signedOut.getByLabel('E-mail or phone').fill('agent@example.com');
  await shot(signedOut, 'sign-in');

  const admin = await newAgency(server, 'Ada Lovelace');
  await addAgent(server, admin, { name: 'Grace Hopper' });
  await addAgent(server, admin, { name: 'Katherine Johnson', role: 'ADMIN' });
  // A real receiver, so the webhook's last delivery reads as delivered (the booking below, a ping).
  const hook = await api(server, admin, '/api/agency/webhooks/create', { url: receiver.url });
  receiver.useSecret(hook.body.data.secret);
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  await context.addCookies([sessionCookie(server, admin)]);
  const page = await context.newPage();

  await page.goto(`${server.url}/search`);
  const offers = await search(page, { from: 'LHR', to: 'JFK' });
  await shot(page, 'search');
  await button(offers.first(), 'Select').click();
  await page.waitForURL((url) => url.pathname === '/book');
  await fillPassenger(page, 1);
  await fillContact(page);
  await shot(page, 'book');
  await button(page, 'Book').click();
  await openBooking(page, server, admin, await shownPnr(page));
  await shot(page, 'booking');
  for (const [address, name] of [
    ['/bookings', 'bookings'],
    ['/agency/agents', 'agents'],
    ['/agency/webhooks', 'webhooks'],
  ] as const) {
    await page.goto(`${server.url}${address}`);
    await page.locator('main h1').waitFor();
    await shot(page, name);
  }
} finally {
  await browser.close();
  await server.stop();
  await receiver.close();
}
