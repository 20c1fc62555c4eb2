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

/**
 * The value of cookie `name` in the `Cookie` request header fields. HTTP/2 clients send each cookie in
 * a field of its own (RFC 9113 §8.2.3), which API Gateway delivers as several values or joined with
 * `, `: pairs are split on `;` and `,` alike (no cookie value may contain either, RFC 6265 §4.1.1).
 * The first pair named `name` wins.
 */
export function readCookie(
  cookieHeaders: string | readonly string[] | undefined,
  name: string,
): string | undefined {
  for (const field of typeof cookieHeaders === 'string' ? [cookieHeaders] : (cookieHeaders ?? [])) {
    for (const pair of field.split(/[;,]/)) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || undefined;
    }
  }
  return undefined;
}
