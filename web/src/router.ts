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
 * A return address from `?next=`: only a path of this site (`/…`, never `//host` or a scheme), so a
 * link cannot send a signed-in agent elsewhere.
 */
export function safeNext(next: string | null): string | undefined {
  return next && /^\/(?![/\\])/.test(next) ? next : undefined;
}
