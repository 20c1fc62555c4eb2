import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { registerAgent } from '#shared/agency/agent-changes.ts';
import { issueSessionToken } from '#shared/auth/session-token.ts';
import { loadSigningKeys } from '#shared/auth/signing-keys.ts';
import { systemClock } from '#shared/clock.ts';
import { readCoreConfig } from '#shared/config.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { LOCAL_TABLE_NAME } from '../../infra/local/bootstrap.ts';
import { findRunningLocalStack } from '../../infra/local/local-stack.ts';
import { post } from './local-server.ts';
import { lastCodeFor } from './outbox.ts';

/**
 * Agencies, agents and sessions on a running `npm start`, for the browser tests, the console
 * benchmark and the screenshots (none of which may depend on vitest): each caller's own agency, its
 * ADMIN registered as the operator does, sessions signed as verify-otp signs them.
 */

/** Debian's Chromium; the browser tests, the benchmark and the screenshots never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_MISSING = `Chromium is missing at ${CHROMIUM}. The console is driven in Debian's chromium and never in a downloaded one: install it with \`sudo apt-get install -y chromium\` (.ci/run does it when missing).`;

export interface Served {
  readonly url: string;
  readonly dataDir: string;
}

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

/** The `__Host-session` cookie a sign-in leaves, for a browser context's addCookies. */
export const sessionCookie = (server: Served, who: SignedIn) => ({
  name: '__Host-session',
  value: who.token,
  domain: new URL(server.url).hostname,
  path: '/',
  secure: true,
  httpOnly: true,
  sameSite: 'Strict' as const,
});
