/**
 * The session cookie (docs/API.md §3.2). `__Host-` binds it to this host and path `/`, `HttpOnly` keeps
 * scripts off it, `Secure` keeps it off plain HTTP, and `SameSite=Strict` together with the JSON-only
 * body rule and the same-origin check (authenticate.ts) stops cross-site requests from riding on it.
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
 * Every `name=value` pair of the `Cookie` request header fields, in order, as RFC 6265 §4.2.1 and §5.4
 * write them: `cookie-pair *( ";" SP cookie-pair )`. Pairs are split on `;` only — never on `,`, which
 * a cookie value may carry (a value `1,__Host-session=<token>` set by a sibling site for the parent
 * domain is one pair named `x`, not a session cookie). A missing space after `;` and white space around
 * names and values are tolerated; a pair without `=` is ignored. Every field counts: HTTP/2 clients
 * send each cookie in a field of its own (RFC 9113 §8.2.3), which API Gateway delivers as several
 * `multiValueHeaders` values, and the dev server likewise.
 */
function cookiePairs(cookieHeaders: readonly string[]): [name: string, value: string][] {
  return cookieHeaders.flatMap((field) =>
    field.split(';').flatMap((pair): [string, string][] => {
      const eq = pair.indexOf('=');
      return eq === -1 ? [] : [[pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()]];
    }),
  );
}

/** What the request says of one cookie: nothing, one value, or several (which no browser sends for a `__Host-` cookie). */
type CookieReading = { kind: 'absent' } | { kind: 'one'; value: string } | { kind: 'several' };

/**
 * The cookie `name` in the `Cookie` header fields: absent (or empty), its one value, or `several` when
 * the request carries it more than once — in one field or across fields, empty ones included — which
 * the caller must refuse rather than pick one (a planted cookie could come first or last).
 */
export function readCookie(cookieHeaders: readonly string[], name: string): CookieReading {
  const values = cookiePairs(cookieHeaders)
    .filter(([pairName]) => pairName === name)
    .map(([, value]) => value);
  if (values.length > 1) return { kind: 'several' };
  return values[0] ? { kind: 'one', value: values[0] } : { kind: 'absent' };
}
