import { ForbiddenError } from '../errors.ts';
import type { ApiEvent } from './api-event.ts';
import { readHeader } from './headers.ts';

/**
 * Defence in depth for the session cookie (docs/decisions.md, "Cookie sessions and CSRF"): a
 * request that authenticates with the cookie must come from the service's own pages or an origin the
 * stage lists for CORS. `SameSite=Strict` already keeps the cookie off cross-site requests, and the
 * JSON content type needs a preflight; this check also stops a sibling site (same site, another
 * origin) and any browser that sends the cookie where it should not. Every cookie-authenticated
 * request is checked: every route is a POST, and none is so harmless that another site should call it
 * with an agent's session. Headers a browser did not send are not required (non-browser clients send
 * neither), and bearer requests are not checked: no browser attaches a bearer token by itself.
 */

/** Hosts reached over plain HTTP that browsers still treat as secure: `npm start`'s. */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/**
 * The origins of the service's own pages, from the request's `Host`: `https://<host>` (behind API
 * Gateway, the domain the browser asked for, execute-api or custom), and `http://<host>` only for a
 * loopback host (the dev server).
 */
function ownOrigins(event: ApiEvent): string[] {
  const host = readHeader(event.headers, 'host')?.trim().toLowerCase();
  if (!host) return [];
  return LOOPBACK_HOST.test(host) ? [`https://${host}`, `http://${host}`] : [`https://${host}`];
}

const REFUSAL =
  'The session cookie works only from this service’s own pages; this request came from another site.';

/**
 * 403 FORBIDDEN for a cookie-authenticated request from another site: `Sec-Fetch-Site: cross-site`,
 * `same-site` from an origin the stage does not list, or an `Origin` that is neither the request's own
 * nor listed (`null` included).
 */
export function refuseCrossSite(event: ApiEvent, corsOrigins: readonly string[]): void {
  const site = readHeader(event.headers, 'sec-fetch-site')?.trim().toLowerCase();
  const origin = readHeader(event.headers, 'origin')?.trim().toLowerCase();
  const listed = origin !== undefined && corsOrigins.some((allowed) => allowed.toLowerCase() === origin);
  if (site === 'cross-site' || (site === 'same-site' && !listed)) throw new ForbiddenError(REFUSAL);
  if (origin !== undefined && !listed && !ownOrigins(event).includes(origin))
    throw new ForbiddenError(REFUSAL);
}
