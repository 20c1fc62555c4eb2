/**
 * The session cookie (docs/API.md §3.2). `__Host-` binds it to this host and path `/`, `HttpOnly` keeps
 * scripts off it, `Secure` keeps it off plain HTTP, and `SameSite=Strict` together with the JSON-only
 * body rule stops cross-site requests from riding on it.
 */
export const SESSION_COOKIE = '__Host-session';

const attributes = 'Path=/; HttpOnly; Secure; SameSite=Strict';

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; ${attributes}; Max-Age=${maxAgeSeconds}`;
}

/** Tells the browser to drop the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; ${attributes}; Max-Age=0`;
}

/** The value of cookie `name` in a `Cookie` request header. */
export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
