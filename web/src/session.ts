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

/** Ends this session (the service revokes the token and clears the cookie) and forgets every draft. */
export async function signOut(): Promise<void> {
  await settle(client.POST('/api/auth/logout', { body: {} }), { quiet: true });
  clearStored();
}

/** The digits of what was typed or pasted (`123 456`, `123-456`), at most six. */
export const codeDigits = (text: string): string => text.replace(/\D/g, '').slice(0, 6);
