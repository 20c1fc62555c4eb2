import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { onSessionEnded } from './api.ts';
import { appPath } from './base.ts';
import { Boundary, Link } from './components.tsx';
import { currentAddress, navigate, type Place, safeNext, screenAt, usePlace } from './router.ts';
import { AgentsScreen } from './screens/agents.tsx';
import { BookScreen } from './screens/book.tsx';
import { BookingScreen } from './screens/booking.tsx';
import { BookingsScreen } from './screens/bookings.tsx';
import { SearchScreen } from './screens/search.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { type Agent, currentAgent, isAdmin, onSignedOutElsewhere, sessionEnded, signOut } from './session.ts';
import { noSessionCookie } from './session-check.ts';

/**
 * What each screen of the one list (`CONSOLE_SCREENS`, read through router.ts) shows a signed-in agent;
 * `param` is the screen's `{parameter}`, decoded.
 */
const VIEWS: Record<string, (place: Place, agent: Agent, param: string) => JSX.Element> = {
  '/search': (place) => <SearchScreen place={place} />,
  '/book': () => <BookScreen />,
  '/bookings': (place) => <BookingsScreen place={place} />,
  '/bookings/{booking_id}': (_place, _agent, bookingId) => <BookingScreen bookingId={bookingId} />,
  '/agency/agents': (_place, agent) => <AgentsScreen agent={agent} />,
  '/agency/webhooks': () => <WebhooksScreen />,
};

/** The screen for a signed-in agent at `place` (docs/console.md, Screens and addresses). */
function screenFor(place: Place, agent: Agent) {
  const at = screenAt(place.path);
  const view = at && VIEWS[at.screen.path];
  if (!at || !view) return <NotFound />;
  if (at.screen.who === 'ADMIN' && !isAdmin(agent)) return <NotAllowed />;
  return view(place, agent, at.params[0] ?? '');
}

/**
 * Who is signed in — undefined while the session check is on its way, null when signed out — and the
 * identifier of a session that ended in this tab without a sign-out (sign-in offers it again).
 */
function useAgent() {
  // A page whose request carried no session cookie is signed out from its first render: the sign-in
  // form waits for no check (docs/console.md, Budgets).
  const [agent, setAgent] = useState<Agent | null | undefined>(() => (noSessionCookie() ? null : undefined));
  const [endedAs, setEndedAs] = useState(() => (noSessionCookie() ? sessionEnded() : undefined));

  useEffect(() => {
    if (!noSessionCookie())
      void currentAgent().then((found) => {
        if (!found) setEndedAs(sessionEnded());
        setAgent(found);
      });
    // Signed out in another tab: this tab's drafts are gone already; its screen goes too.
    onSignedOutElsewhere(() => {
      navigate('/sign-in', { replace: true });
      setEndedAs(undefined);
      setAgent(null);
    });
    // A 401 anywhere: back to sign-in, then back here (the forms keep their drafts).
    onSessionEnded(() => {
      setEndedAs(sessionEnded());
      setAgent(null);
      if (appPath() !== '/sign-in')
        navigate(`/sign-in?next=${encodeURIComponent(currentAddress())}`, { replace: true });
    });
  }, []);

  /** Signed in (`who`), or signed out (null) by this tab's own action: no ended session to speak of. */
  const settle = (who: Agent | null) => {
    setEndedAs(undefined);
    setAgent(who);
  };
  return { agent, endedAs, settle };
}

export function App() {
  const place = usePlace();
  const { agent, endedAs, settle } = useAgent();

  // Addresses that only redirect: `/` and sign-in once signed in, any screen once signed out.
  useEffect(() => {
    if (agent === undefined) return;
    if (agent === null && place.path !== '/sign-in') {
      const next = place.path === '/' ? '' : `?next=${encodeURIComponent(currentAddress())}`;
      navigate(`/sign-in${next}`, { replace: true });
    } else if (agent && (place.path === '/' || place.path === '/sign-in')) {
      navigate(safeNext(place.query.get('next')), { replace: true });
    }
  }, [agent, place]);

  useFocusOnNavigation(place.path);

  if (agent === undefined) return <p class="loading">Loading…</p>;
  if (agent === null || place.path === '/sign-in' || place.path === '/') {
    return agent ? null : <SignIn onSignedIn={settle} endedAs={endedAs} />;
  }
  return (
    <>
      <Header agent={agent} path={place.path} onSignedOut={() => settle(null)} />
      <Boundary key={place.path}>{screenFor(place, agent)}</Boundary>
    </>
  );
}

/** After a navigation, focus goes to the new screen's heading, so keyboard and screen-reader users start there. */
function useFocusOnNavigation(path: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [path]);
}

function Header({ agent, path, onSignedOut }: { agent: Agent; path: string; onSignedOut: () => void }) {
  const [leaving, setLeaving] = useState(false);
  const current = (href: string) => (path === href || path.startsWith(`${href}/`) ? 'page' : undefined);
  const leave = async () => {
    setLeaving(true);
    await signOut();
    onSignedOut();
    navigate('/sign-in');
  };
  return (
    <header class="top">
      <nav aria-label="Main">
        <Link href="/search" aria-current={current('/search')}>
          Search
        </Link>
        <Link href="/bookings" aria-current={current('/bookings')}>
          Bookings
        </Link>
        {isAdmin(agent) && (
          <>
            <Link href="/agency/agents" aria-current={current('/agency/agents')}>
              Agents
            </Link>
            <Link href="/agency/webhooks" aria-current={current('/agency/webhooks')}>
              Webhooks
            </Link>
          </>
        )}
      </nav>
      <p class="who">
        {agent.name} <span class="role">{agent.role}</span>
      </p>
      <button type="button" onClick={leave} disabled={leaving}>
        Sign out
      </button>
    </header>
  );
}

function NotAllowed() {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Not allowed</h1>
      <p>This screen is for the agency's admins. Ask an admin if you need something changed here.</p>
    </main>
  );
}

function NotFound() {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Nothing here</h1>
      <p>
        There is no screen at this address. <Link href="/search">Search flights</Link>
      </p>
    </main>
  );
}
