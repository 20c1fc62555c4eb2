import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { readCookie, SESSION_COOKIE } from '../http/cookies.ts';
import { CONSOLE_SCREENS } from './screens.ts';

/**
 * How the agent console is served (docs/API.md §4.8), in one place for the dev server and the
 * function the stack deploys: which paths are the console's, and the headers every answer carries.
 */

/** One file of a console build, as served: its content type and text (every file is text). */
interface ConsoleFile {
  readonly contentType: string;
  readonly body: string;
}

/** A build's files by their path under the build folder: `index.html`, `assets/<name>-<hash>.js`. */
export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>;

interface ConsoleResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The page's Content-Security-Policy (docs/console.md, Serving): nothing inline, nothing from elsewhere. */
const CONSOLE_CSP = [
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

/** The folder of hashed assets; its files never change, so browsers keep them a year. */
export const ASSETS_PREFIX = '/assets/';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The content type of a console file by its extension; undefined for a kind the console never ships. */
export function consoleContentType(file: string): string | undefined {
  return CONTENT_TYPES[extname(file)];
}

/**
 * The screen addresses (screens.ts, the one list): each answers the one page, whose script shows the
 * screen, so a reload or a shared link keeps the screen. A `{parameter}` is one id's segment.
 */
const SCREEN_PATHS = new Set<string>(
  CONSOLE_SCREENS.map((screen) => screen.path).filter((path) => !path.includes('{')),
);
const PARAMETER_PATHS = CONSOLE_SCREENS.filter((screen) => screen.path.includes('{')).map(
  (screen) => new RegExp(`^${screen.path.replace(/\{[a-z_]+\}/g, '[A-Za-z0-9_-]{1,64}')}$`),
);

/** Whether `path` is one of the console's screen addresses. */
export function isScreenPath(path: string): boolean {
  return SCREEN_PATHS.has(path) || PARAMETER_PATHS.some((pattern) => pattern.test(path));
}

/**
 * The powerful features the page never uses, denied to it and to anything it could ever embed, so an
 * injected script cannot ask for them either. Only names Chromium knows (an unknown one is a console
 * warning); `clipboard-write` stays allowed: the webhook secret's copy button uses it.
 */
const CONSOLE_PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'speaker-selection',
  'usb',
  'window-management',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * Every console answer's security headers (docs/API.md §4.8): the CSP; no sniffing, no referrer; the
 * features above denied; a window of its own (`Cross-Origin-Opener-Policy`: a page of another origin
 * that opened it, or that it opens, gets no handle on it); and its files readable by this origin only
 * (`Cross-Origin-Resource-Policy`: no other site may load the page or a script as a resource).
 */
const commonHeaders = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': CONSOLE_PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The answer to `GET path` (HEAD alike, the caller leaving the body out) from a console build, or
 * undefined when `path` is not the console's (an API route, an unknown asset): the caller answers it.
 * Screen addresses get the page, never cached without asking again, so a new build is seen at once;
 * assets get their hashed file, cached for a year.
 */
export function consoleResponse(path: string, files: ConsoleFiles): ConsoleResponse | undefined {
  const page = isScreenPath(path) ? files.get('index.html') : undefined;
  // The page differs by the request's cookie (pageForVisit).
  if (page) return answer(page, 'no-cache', 'Accept-Encoding, Cookie');
  if (!path.startsWith(ASSETS_PREFIX)) return undefined;
  const name = path.slice(ASSETS_PREFIX.length);
  // A Map and an exact name: `..`, `%2e`, `__proto__` or a folder are simply no file of the build.
  const asset = name.includes('/') ? undefined : files.get(`assets/${name}`);
  return asset && answer(asset, 'public, max-age=31536000, immutable', 'Accept-Encoding');
}

function answer(file: ConsoleFile, cacheControl: string, vary: string): ConsoleResponse {
  return {
    statusCode: 200,
    headers: {
      'Content-Type': file.contentType,
      'Cache-Control': cacheControl,
      ...commonHeaders,
      // The gateway gzips answers of 1 KiB and more for clients that accept it (infra/stack.ts), as the
      // dev server does: a cache must keep the spellings apart.
      Vary: vary,
    },
    body: file.body,
  };
}

/**
 * The page for one visit: when the request carried no `__Host-session` cookie, the page says so, and
 * the console shows sign-in at once instead of asking the session route, which could only answer 401
 * (docs/decisions.md, "The sign-in form waits for no check"). Only absence is told: whether a cookie
 * is a live session stays the session route's to judge.
 */
export function pageForVisit(page: string, cookieHeaders: readonly string[]): string {
  if (readCookie(cookieHeaders, SESSION_COOKIE).kind !== 'absent') return page;
  return page.replace('<head>', '<head><meta name="console-session" content="none">');
}

/** Reads a build folder (`index.html` and `assets/`) into the files {@link consoleResponse} serves. */
export function readConsoleFiles(dir: string): ConsoleFiles {
  const files = new Map<string, ConsoleFile>();
  const names = ['index.html', ...readdirSync(join(dir, 'assets')).map((name) => `assets/${name}`)];
  for (const name of names) {
    const contentType = consoleContentType(name);
    if (contentType) files.set(name, { contentType, body: readFileSync(join(dir, name), 'utf8') });
  }
  return files;
}
