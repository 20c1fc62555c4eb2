/**
 * Where the console's addresses start. Served at a domain's root the page has no base; on API
 * Gateway's default address every path starts with the stage (`/dev/bookings`, `/dev/api/…`), and
 * the page says so with `<meta name="console-base" content="/dev">` (docs/API.md §4.8). The app
 * works with its own paths (`/bookings`): the base is added to every address it gives the browser
 * (history, links, API calls) and taken off the browser's location before it is read.
 */

/** A base the page may name: path segments of URL-safe characters, as the serving function writes it. */
const SAFE_BASE = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/** The base a page names in its `console-base` meta; '' when it names none (or one that is no path). */
function baseOf(doc: Pick<Document, 'querySelector'>): string {
  const content = doc.querySelector<HTMLMetaElement>('meta[name="console-base"]')?.content ?? '';
  return SAFE_BASE.test(content) ? content : '';
}

/** The browser's address of the app path `path` (`/bookings?status=HELD`) below `base`. */
function withBase(base: string, path: string): string {
  return base + path;
}

/**
 * The app path of the browser's `pathname` below `base`: `/dev/bookings` → `/bookings`, `/dev` →
 * `/`. A path outside the base is left as it is (the app answers it with its "nothing here").
 */
function withoutBase(base: string, pathname: string): string {
  if (!base) return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
}

/** This page's base, read once when the module loads (none outside a browser). */
export const BASE: string = typeof document === 'undefined' ? '' : baseOf(document);

/** The browser's address of an app path on this page. */
export const address = (path: string): string => withBase(BASE, path);

/** The app path the browser's location is at on this page. */
export const appPath = (pathname: string = location.pathname): string => withoutBase(BASE, pathname);
