import { client, type Schemas, settle } from './api.ts';
import { type SessionAnswer, sessionKeeper } from './keep-alive.ts';
import { takeSessionCheck } from './session-check.ts';
import { clearStored, readStored, writeStored } from './storage.ts';

/** Who is signed in, as the session route and verify-otp answer it (never the token). */
export type Agent = Schemas['Agent'];

export const isAdmin = (agent: Agent): boolean => agent.role === 'ADMIN';

const askSession = () => client.POST('/api/auth/session', { body: {} });

/** The answer of the session check boot.ts started, as the typed client would have given it. */
async function asSessionAnswer(response: Response): ReturnType<typeof askSession> {
  const body: unknown = await response.json().catch(() => undefined);
  return (response.ok ? { data: body, response } : { error: body, response }) as Awaited<
    ReturnType<typeof askSession>
  >;
}

/**
 * Who this browser's `__Host-session` cookie signs in (`POST /api/auth/session`), or null when none
 * does. The cookie is HttpOnly: this answer is the only way the page learns it is signed in.
 */
export async function currentAgent(): Promise<Agent | null> {
  const early = takeSessionCheck();
  const outcome = await settle(early ? early.then(asSessionAnswer) : askSession(), { quiet: true });
  if (!outcome.ok) return null;
  signedIn(outcome.body.data.agent, outcome.body.data);
  return outcome.body.data.agent;
}

/**
 * The session's keeper: refreshed with `cookie_only` (the fresh token is the cookie alone) while the
 * agent works; at the token's end, the session check (a 401 from either ends the session, api.ts).
 */
const keeper = sessionKeeper({
  async refresh() {
    const outcome = await settle(client.POST('/api/auth/refresh', { body: { cookie_only: true } }));
    return outcome.ok ? outcome.body.data : undefined;
  },
  async check() {
    const outcome = await settle(client.POST('/api/auth/session', { body: {} }));
    return outcome.ok ? outcome.body.data : undefined;
  },
});
let watching = false;
const onActivity = () => keeper.activity();

/** Where the agent's identifier is kept while signed in, so a session that ends can offer it again. */
const SIGNED_IN_AS = 'signed-in-as';

/** A session begins or is found: remember who, and keep it alive while the agent works. */
export function signedIn(agent: Agent, answer: SessionAnswer): void {
  writeStored(SIGNED_IN_AS, agent.identifier);
  keeper.start(answer);
  if (watching) return;
  watching = true;
  for (const kind of ['keydown', 'pointerdown'])
    addEventListener(kind, onActivity, { capture: true, passive: true });
}

/**
 * The session ended without a sign-out (a 401): nothing more is refreshed, and the identifier it was
 * signed in with, if this tab had one, is answered for the sign-in screen to offer again.
 */
export function sessionEnded(): string | undefined {
  keeper.stop();
  return readStored<string>(SIGNED_IN_AS);
}

/** The console's other tabs in this browser, opened when first used (never by importing this file). */
let channel: BroadcastChannel | undefined;
const tabs = () => {
  channel ??= new BroadcastChannel('console-session');
  return channel;
};
const SIGNED_OUT = 'signed-out';

/**
 * Ends this session (the service revokes the token and clears the cookie) and forgets every draft,
 * in this tab and in every other tab of the console (each keeps its drafts in its own sessionStorage).
 */
export async function signOut(): Promise<void> {
  keeper.stop();
  await settle(client.POST('/api/auth/logout', { body: {} }), { quiet: true });
  clearStored();
  tabs().postMessage(SIGNED_OUT);
}

/** When another tab signs out: this tab forgets its drafts, then `listener` leaves its screen. */
export function onSignedOutElsewhere(listener: () => void): void {
  tabs().onmessage = (event: MessageEvent) => {
    if (event.data !== SIGNED_OUT) return;
    keeper.stop();
    clearStored();
    listener();
  };
}

/** The digits of what was typed or pasted (`123 456`, `123-456`), at most six. */
export const codeDigits = (text: string): string => text.replace(/\D/g, '').slice(0, 6);
