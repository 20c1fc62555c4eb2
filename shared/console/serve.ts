import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/**
 * The agent console's serving rules (docs/API.md §4.8), in one module for the dev server and the
 * deployed function alike: which addresses are screens (the page), which are assets, and the headers
 * each answer carries.
 */

/** One file of a console build, by its address: `/index.html`, `/assets/app-<hash>.js`. */
export interface ConsoleFile {
  readonly contentType: string;
  readonly body: string;
}

/** A console build: every file by its address. */
export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>;

export interface ConsoleResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The screens' addresses; `/bookings/<booking_id>` too ({@link BOOKING_SCREEN_PREFIX}). */
export const SCREEN_PATHS = [
  '/',
  '/sign-in',
  '/search',
  '/book',
  '/bookings',
  '/agency/agents',
  '/agency/webhooks',
] as const;

/** One booking's screen: this prefix and one path segment. */
export const BOOKING_SCREEN_PREFIX = '/bookings/';

/** Where the build's assets are served: hashed names, so each may be cached for a year. */
export const ASSETS_PREFIX = '/assets/';

/** The page that every screen address answers with. */
export const PAGE_FILE = '/index.html';

/** The methods console addresses answer; anything else is 405. */
export const CONSOLE_METHODS = ['GET', 'HEAD'] as const;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

export const PAGE_CACHE_CONTROL = 'no-cache';
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The content types a build may hold: text only, so every answer is a text body (API Gateway would
 * need binaryMediaTypes, and base64 bodies, for anything else; docs/decisions.md).
 */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
};

/** Whether `path` is one of the screens' addresses (the page answers it). */
export function isScreenPath(path: string): boolean {
  if ((SCREEN_PATHS as readonly string[]).includes(path)) return true;
  if (!path.startsWith(BOOKING_SCREEN_PREFIX)) return false;
  const id = path.slice(BOOKING_SCREEN_PREFIX.length);
  return id.length > 0 && !id.includes('/');
}

/**
 * The answer to a GET of `path`: the page for a screen address (`no-cache`), a build asset (cached
 * for a year, immutable), both with the console's security headers; `undefined` for any other path.
 *
 * @example consoleResponse('/bookings/bkg_01J…', files)?.body // index.html
 */
export function consoleResponse(path: string, files: ConsoleFiles): ConsoleResponse | undefined {
  const [file, cacheControl] = isScreenPath(path)
    ? [files.get(PAGE_FILE), PAGE_CACHE_CONTROL]
    : path.startsWith(ASSETS_PREFIX) && !path.slice(ASSETS_PREFIX.length).includes('/')
      ? [files.get(path), ASSET_CACHE_CONTROL]
      : [undefined, ''];
  if (!file) return undefined;
  return {
    statusCode: 200,
    headers: { 'Content-Type': file.contentType, 'Cache-Control': cacheControl, ...SECURITY_HEADERS },
    body: file.body,
  };
}

/**
 * A build folder's files by address, read once (a cold start, a server start). A file of a type not in
 * {@link CONTENT_TYPES} stops it: the build must not hold what cannot be served as text.
 */
export function readConsoleFiles(dir: string): ConsoleFiles {
  const files = new Map<string, ConsoleFile>();
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const contentType = CONTENT_TYPES[extname(entry.name)];
    if (!contentType) throw new Error(`console build: no content type for ${entry.name}`);
    const address = `/${relative(dir, full).split(sep).join('/')}`;
    files.set(address, { contentType, body: readFileSync(full, 'utf8') });
  }
  if (!files.has(PAGE_FILE)) throw new Error(`console build: no ${PAGE_FILE.slice(1)} in ${dir}`);
  return files;
}
