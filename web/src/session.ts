import { client, type Schemas, settle } from './api.ts';
import { clearStored } from './storage.ts';

/** Who is signed in, as the session route and verify-otp answer it (never the token). */
export type Agent = Schemas['Agent'];

export const isAdmin = (agent: Agent): boolean => agent.role === 'ADMIN';

/**
 * Who this browser's `__Host-session` cookie signs in (`POST /api/auth/session`), or null when none
 * does. The cookie is HttpOnly: this answer is the only way the page learns it is signed in.
 */
export async function currentAgent(): Promise<Agent | null> {
  const outcome = await settle(client.POST('/api/auth/session', { body: {} }), { quiet: true });
  return outcome.ok ? outcome.body.data.agent : null;
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
  await settle(client.POST('/api/auth/logout', { body: {} }), { quiet: true });
  clearStored();
  tabs().postMessage(SIGNED_OUT);
}

/** When another tab signs out: this tab forgets its drafts, then `listener` leaves its screen. */
export function onSignedOutElsewhere(listener: () => void): void {
  tabs().onmessage = (event: MessageEvent) => {
    if (event.data !== SIGNED_OUT) return;
    clearStored();
    listener();
  };
}

/** The digits of what was typed or pasted (`123 456`, `123-456`), at most six. */
export const codeDigits = (text: string): string => text.replace(/\D/g, '').slice(0, 6);
