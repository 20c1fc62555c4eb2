import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { type Served, type SignedIn, sessionCookie } from '../helpers/console-agents.ts';
import { readOutbox } from '../helpers/outbox.ts';

export * from '../helpers/console-agents.ts';

/**
 * The browser suite's harness: the run's one Chromium (global-setup.ts) reached over its WebSocket, the
 * run's `npm start`, agencies and agents of a test's own (so throttles, bookings, agents and webhooks
 * never cross between tests), pages already signed in through the `__Host-session` cookie, the
 * sign-in form as a person fills it, and the axe-core check every screen passes.
 */

/** The run's shared `npm start`. */
export const shared = (): Served => ({ url: inject('consoleUrl'), dataDir: inject('consoleDataDir') });

/**
 * How long a page state, a page's settling or a server's write may take to come before a wait fails
 * with its own message: 20 s on a loaded 2-core machine, where the same state comes in well under a
 * second on a quiet one. Below the test's 60 s, so the wait's message comes before the test's timeout.
 */
const WAIT_MS = 20_000;

let connected: Promise<Browser> | undefined;
/** The run's Chromium, connected once per test file. */
export function browser(): Promise<Browser> {
  connected ??= chromium.connect(inject('browserWsEndpoint'));
  return connected;
}

/** Closes this file's connection, and with it every context and page the file opened (file-setup.ts). */
export async function disconnect(): Promise<void> {
  const closing = connected;
  connected = undefined;
  await (await closing)?.close();
}

export interface Watched {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Uncaught errors thrown in the page, console errors (a CSP refusal is one), answers of 400 and above. */
  readonly errors: string[];
  /** Resolves once no request of the page has been in flight for 250 ms (background lookups included). */
  settled(): Promise<void>;
  /**
   * Closes the context and its pages: a test takes its page with `await using`, so a page it is done
   * with stops costing Chromium CPU when the test ends (a signed-in page keeps timers and the session
   * check running), not when its whole file does.
   */
  [Symbol.asyncDispose](): Promise<void>;
}

/** A page in a fresh context (no cookie, no storage) that records its errors. */
export async function newPage(): Promise<Watched> {
  // en-US: a date field takes its digits as month, day, year when typed.
  const context = await (await browser()).newContext({ locale: 'en-US' });
  // A UI state that has not come in WAIT_MS will not come: fail with the locator's own message first.
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A failed load is recorded below with its address, which the console message lacks.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    // 401 is how a signed-out page learns it is signed out (/api/auth/session): not an error.
    if (response.status() >= 400 && response.status() !== 401)
      errors.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  let inFlight = 0;
  let lastChange = Date.now();
  const count = (by: number) => () => {
    inFlight += by;
    lastChange = Date.now();
  };
  page.on('request', count(1));
  page.on('requestfinished', count(-1));
  page.on('requestfailed', count(-1));
  const settled = async () => {
    await eventually(async () => (inFlight === 0 && Date.now() - lastChange >= 250) || undefined);
  };
  return { page, context, errors, settled, [Symbol.asyncDispose]: () => context.close() };
}

/** A page whose context holds `who`'s session cookie, exactly as a sign-in would have left it. */
export async function signedInPage(server: Served, who: SignedIn): Promise<Watched> {
  const watched = await newPage();
  await watched.context.addCookies([sessionCookie(server, who)]);
  return watched;
}

/** Fills the sign-in form as a person does, with the code the outbox received; waits until it leaves. */
export async function signInThroughForm(page: Page, server: Served, identifier: string): Promise<void> {
  const before = (await readOutbox(server.dataDir)).length;
  await page.getByLabel('E-mail or phone').fill(identifier);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Code', { exact: true }).waitFor();
  const code = await eventually(async () => {
    const entries = await readOutbox(server.dataDir);
    return entries.slice(before).findLast((entry) => entry.to === identifier)?.code;
  });
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in');
}

/** Polls `read` every 25 ms until it gives a value (at most `ms`). */
export async function eventually<T>(read: () => Promise<T | undefined>, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * axe-core on the page as it is now: zero serious or critical violations, each named when one fails.
 * Of a long list only the first five items are checked: every item is the same component, and 100
 * offer cards took axe 10 s on a loaded machine against 1 s for the rest of the screen. Legacy mode
 * runs axe once in the page, where the default opens a blank page and loads axe again into it to
 * merge per-frame results: the console has no frames, and each check was about a second slower.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page, axeSource: await axeSourceFor(page) })
    .setLegacyMode()
    .exclude('li:nth-child(n+6)')
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${screen}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious).toEqual([]);
}

/**
 * What the builder evaluates in the page before each check: axe-core's 0.6 MB source, which the
 * builder evaluates twice a check (in legacy mode), or nothing once the document holds axe. The
 * console moves between screens without loading a document, so a test's later checks on one page
 * run axe alone: the source cost as much CPU as the check itself, and more on a loaded machine.
 */
async function axeSourceFor(page: Page): Promise<string | undefined> {
  const loaded = await page.evaluate('typeof window.axe?.run === "function"');
  return loaded ? '/* axe-core is already in this document */' : undefined;
}

/**
 * What page script can read of the session: cookies, storage, the history state, the document and every
 * global that serialises. None may hold the token.
 */
export async function readableByScript(page: Page): Promise<string> {
  // A string, evaluated in the page: the test code is type-checked without the DOM library.
  return page.evaluate(`(() => {
    const globals = {};
    for (const key of Object.getOwnPropertyNames(window)) {
      try {
        const text = JSON.stringify(window[key]);
        if (text) globals[key] = text;
      } catch {
        // Not serialisable (a cycle, a getter that throws): no string of ours inside.
      }
    }
    return JSON.stringify({
      cookie: document.cookie,
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      state: history.state,
      html: document.documentElement.outerHTML,
      globals,
    });
  })()`);
}
