import { address } from './base.ts';

/**
 * The session check started by the page's first, tiny script (boot.ts) while the console's own script
 * is still on its way, so the sign-in form waits for neither one after the other (docs/console.md,
 * Budgets). Kept under a registered symbol: the two scripts are separate bundles.
 */
const EARLY = Symbol.for('console:session-check');
type Holder = { [EARLY]?: Promise<Response> };

/** Starts `POST /api/auth/session` (the HttpOnly cookie is its only credential) and keeps its answer. */
export function startSessionCheck(): void {
  const check = fetch(address('/api/auth/session'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  // A failure is the taker's to handle; unhandled only when the console's script never runs.
  check.catch(() => {});
  (globalThis as Holder)[EARLY] = check;
}

/**
 * Whether the page says its request carried no session cookie (shared/console/serve.ts,
 * `pageForVisit`): then nobody is signed in, and no check is needed to know it.
 */
export function noSessionCookie(): boolean {
  return document.querySelector('meta[name="console-session"]')?.getAttribute('content') === 'none';
}

/** The session check boot.ts started, once (a later check asks again), or undefined when none was. */
export function takeSessionCheck(): Promise<Response> | undefined {
  const holder = globalThis as Holder;
  const check = holder[EARLY];
  delete holder[EARLY];
  return check;
}
