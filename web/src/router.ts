import { useEffect, useState } from 'preact/hooks';
import { address, appPath } from './base.ts';

/**
 * Real addresses for every screen (docs/console.md): `history.pushState` on navigation, `popstate` for
 * back and forward, and the page served at every screen address, so a reload keeps the screen.
 */
const listeners = new Set<() => void>();

export interface Place {
  path: string;
  query: URLSearchParams;
}

const here = (): Place => ({ path: appPath(), query: new URLSearchParams(location.search) });

/** The app's address of this screen (path below the page's base, and query), to come back to after signing in. */
export const currentAddress = (): string => appPath() + location.search;

/** Goes to the app address `to` (`/bookings?status=HELD`), below the page's base in the browser. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === currentAddress()) return;
  if (options.replace) history.replaceState(null, '', address(to));
  else history.pushState(null, '', address(to));
  notify();
}

const notify = () => {
  for (const listener of listeners) listener();
};

/** The current place, re-rendering the caller on every navigation (back and forward included). */
export function usePlace(): Place {
  const [place, setPlace] = useState(here);
  useEffect(() => {
    const update = () => setPlace(here());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return place;
}

/**
 * The console's screens, the one list the server and the stack read too (shared/console/screens.ts),
 * defined by the build (infra/web/build.ts) and by the unit tests' configuration.
 */
declare const CONSOLE_SCREENS: readonly { path: string; who: 'anyone' | 'AGENT' | 'ADMIN' }[];

type Screen = (typeof CONSOLE_SCREENS)[number];

/** A screen's path as a pattern: a `{parameter}` is one segment, captured. */
const patternOf = (screen: Screen) => new RegExp(`^${screen.path.replace(/\{[a-z_]+\}/g, '([^/]+)')}$`);
const PATTERNS = CONSOLE_SCREENS.map((screen) => ({ screen, pattern: patternOf(screen) }));

/**
 * The screen of the one list at the app path `path` (`/bookings/bkg_1`), with its parameters' values
 * in order, decoded (`['bkg_1']`); undefined for an address that is no screen. A broken percent
 * escape is no screen either.
 */
export function screenAt(path: string): { screen: Screen; params: string[] } | undefined {
  for (const { screen, pattern } of PATTERNS) {
    const found = pattern.exec(path);
    if (!found) continue;
    try {
      return { screen, params: found.slice(1).map((value) => decodeURIComponent(value)) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The console's screens a return address may name: those of a signed-in agent, from the one list
 * (`CONSOLE_SCREENS`, docs/console.md, Screens and addresses); a `{parameter}` is one segment.
 */
const SCREENS = new RegExp(
  `^(?:${CONSOLE_SCREENS.filter((screen) => screen.who !== 'anyone')
    .map((screen) => screen.path.replace(/\{[a-z_]+\}/g, '[^/]+'))
    .join('|')})$`,
);
/** Any origin will do to resolve against: only "is it still this origin" is asked of it. */
const HERE = 'https://console.invalid';

/**
 * Where to go after signing in, from `?next=`: a screen of this console (`/bookings/bkg_1?x=1`),
 * read as the browser would read it (`new URL`, which drops tabs and line breaks, so `/\t/x` is
 * `//x`, another host), else `/search`. Never another origin, never a scheme (`javascript:`), never
 * a path with a broken percent escape: a crafted link cannot send an agent elsewhere or blank the page.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || /^\/[/\\]/.test(next)) return '/search';
  try {
    const url = new URL(next, HERE);
    if (url.origin !== HERE || !SCREENS.test(url.pathname)) return '/search';
    decodeURIComponent(url.pathname);
    return url.pathname + url.search;
  } catch {
    return '/search';
  }
}
