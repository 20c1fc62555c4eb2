import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, expect, inject } from 'vitest';
import { registerAgent } from '#shared/agency/agent-changes.ts';

import { issueSessionToken } from '#shared/auth/session-token.ts';
import { loadSigningKeys } from '#shared/auth/signing-keys.ts';
import { systemClock } from '#shared/clock.ts';
import { readCoreConfig } from '#shared/config.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { LOCAL_TABLE_NAME } from '../../infra/local/bootstrap.ts';
import { findRunningLocalStack } from '../../infra/local/local-stack.ts';
import { post } from '../helpers/local-server.ts';
import { lastCodeFor, readOutbox } from '../helpers/outbox.ts';

/**
 * The browser suite's harness: the run's one Chromium (global-setup.ts) reached over its WebSocket, the
 * run's `npm start`, agencies and agents of a test's own (so throttles, bookings, agents and webhooks
 * never cross between tests), pages already signed in through the `__Host-session` cookie, the
 * sign-in form as a person fills it, and the axe-core check every screen passes.
 */

export interface Served {
  readonly url: string;
  readonly dataDir: string;
}

/** The run's shared `npm start`. */
export const shared = (): Served => ({ url: inject('consoleUrl'), dataDir: inject('consoleDataDir') });

let connected: Promise<Browser> | undefined;
/** The run's Chromium, connected once per test file. */
export function browser(): Promise<Browser> {
  connected ??= chromium.connect(inject('browserWsEndpoint'));
  return connected;
}
afterAll(async () => {
  await (await connected)?.close();
});

export const inDays = (days: number) => new Date(Date.now() + days * 864e5).toISOString().slice(0, 10);
export const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;

export interface SignedIn {
  readonly identifier: string;
  readonly token: string;
  readonly agent: { id: string; name: string; agency_id: string; role: string };
}

/** Signs `identifier` in over the API (send-otp, the outbox's code, verify-otp). */
export async function apiSignIn(server: Served, identifier: string): Promise<SignedIn> {
  const sent = await post(`${server.url}/api/auth/send-otp`, { identifier, type: 'EMAIL' });
  if (sent.status !== 202) throw new Error(`send-otp answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  const code = await lastCodeFor(identifier, server.dataDir);
  const verified = await post(`${server.url}/api/auth/verify-otp`, { identifier, code });
  if (verified.status !== 200) throw new Error(`verify-otp answered ${verified.status}`);
  return { identifier, token: verified.body.data.verification_token, agent: verified.body.data.agent };
}

/** An authenticated POST to the API, as a script (not the page) would make it. */
export function api(
  server: Served,
  who: SignedIn,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return post(`${server.url}${path}`, body, { Authorization: `Bearer ${who.token}`, ...headers });
}

/**
 * The operator's side of a running `npm start`: its DynamoDB Local and its signing key. A code may be
 * sent to an identifier once per 30 s, so a test that signs in through the form (again) must not have
 * spent that send on its set-up: set-up sessions are tokens signed as verify-otp signs them.
 */
const operators = new Map<string, ReturnType<typeof operatorOf>>();
async function operatorOf(server: Served) {
  const running = await findRunningLocalStack(server.dataDir);
  if (!running) throw new Error(`no npm start runs on ${server.dataDir}`);
  const keys = await loadSigningKeys({ file: join(server.dataDir, 'signing.key') });
  const config = readCoreConfig({ TABLE_NAME: LOCAL_TABLE_NAME, SIGNING_KEY_FILE: 'signing.key' });
  const tokens = { key: keys.token, issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE };
  return {
    store: { db: createDocumentClient(running.dynamodb_endpoint), tableName: LOCAL_TABLE_NAME },
    session: async (agent: SignedIn['agent'] & { identifier: string }): Promise<SignedIn> => ({
      identifier: agent.identifier,
      token: (await issueSessionToken(agent, { tokens, clock: systemClock() })).token,
      agent: { id: agent.id, name: agent.name, agency_id: agent.agency_id, role: agent.role },
    }),
  };
}
const operator = (server: Served) => {
  const known = operators.get(server.url) ?? operatorOf(server);
  operators.set(server.url, known);
  return known;
};

/**
 * A new agency whose first ADMIN the operator registers (as `npm run agents -- add` does), with a
 * session. Each test's own agency keeps its bookings, agents and webhooks to itself.
 */
export async function newAgency(server: Served, name = 'Test Admin'): Promise<SignedIn> {
  const { store, session } = await operator(server);
  const agent = await registerAgent(store, systemClock(), {
    identifier: uniqueEmail('admin'),
    type: 'EMAIL',
    name,
    agencyId: `agency-${randomBytes(4).toString('hex')}`,
    role: 'ADMIN',
  });
  return session(agent);
}

/** A new session of an agent that already has one (after its sessions were ended, say). */
export async function freshSession(server: Served, who: SignedIn): Promise<SignedIn> {
  return (await operator(server)).session({ ...who.agent, identifier: who.identifier });
}

/** An agent of `admin`'s agency, registered by that ADMIN through the API, with a session. */
export async function addAgent(
  server: Served,
  admin: SignedIn,
  options: { role?: 'AGENT' | 'ADMIN'; name?: string } = {},
): Promise<SignedIn> {
  const created = await api(server, admin, '/api/agency/agents/create', {
    identifier: uniqueEmail('agent'),
    type: 'EMAIL',
    name: options.name ?? 'Test Agent',
    role: options.role ?? 'AGENT',
  });
  if (created.status !== 201)
    throw new Error(`agents/create answered ${created.status}: ${JSON.stringify(created.body)}`);
  return (await operator(server)).session({ ...created.body.data, agency_id: admin.agent.agency_id });
}

export interface Watched {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Uncaught errors thrown in the page, console errors (a CSP refusal is one), answers of 400 and above. */
  readonly errors: string[];
}

/** A page in a fresh context (no cookie, no storage) that records its errors. */
export async function newPage(): Promise<Watched> {
  // en-US: a date field takes its digits as month, day, year when typed.
  const context = await (await browser()).newContext({ locale: 'en-US' });
  // A UI state that has not come in 10 s will not come: fail with the locator's own message first.
  context.setDefaultTimeout(10_000);
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
  return { page, context, errors };
}

/** A page whose context holds `who`'s session cookie, exactly as a sign-in would have left it. */
export async function signedInPage(server: Served, who: SignedIn): Promise<Watched> {
  const watched = await newPage();
  await watched.context.addCookies([
    {
      name: '__Host-session',
      value: who.token,
      domain: new URL(server.url).hostname,
      path: '/',
      secure: true,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
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
export async function eventually<T>(read: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** axe-core on the page as it is now: zero serious or critical violations, each named when one fails. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${screen}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious).toEqual([]);
}

/** What page script can read of the session: storage and cookies. None may hold the token. */
export async function readableByScript(page: Page): Promise<string> {
  // A string, evaluated in the page: the test code is type-checked without the DOM library.
  return page.evaluate(
    'JSON.stringify({ cookie: document.cookie, local: Object.entries(localStorage), session: Object.entries(sessionStorage) })',
  );
}
