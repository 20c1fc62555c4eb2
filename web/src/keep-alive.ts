/**
 * Keeping a working agent's session alive (docs/console.md, "A working day"): the token is refreshed
 * (docs/API.md §3.3b) in its last 15 minutes, but only when the agent has been active since it came,
 * so a tab left alone ends its session within two hours; the 12 hours from sign-in end it anyway.
 * The calls themselves are given: this file decides only when.
 */

/** How long before a token's end it is refreshed, if the agent has been active since it came. */
const REFRESH_BEFORE_MS = 15 * 60_000;
/** A token's full lifetime (docs/API.md §3.2); a shorter one is the last of its sign-in's 12 hours. */
const FULL_LIFETIME_SECONDS = 3600;
/** After a refresh that got no answer (offline), the next try waits this long. */
const RETRY_MS = 30_000;

/** What the console knows of its session token, in epoch milliseconds. */
interface SessionTimes {
  readonly expiresAt: number;
  /** When this token came (signed in, refreshed, or found by the session check). */
  readonly since: number;
  readonly lastActivity: number;
  /** The token ends with its sign-in's 12 hours: a refresh would give no more time. */
  readonly last: boolean;
}

/** Whether to refresh now: in the token's last 15 minutes, the agent active since it came, and not its last. */
function refreshDue(times: SessionTimes, now: number): boolean {
  return (
    !times.last &&
    now < times.expiresAt &&
    times.expiresAt - now <= REFRESH_BEFORE_MS &&
    times.lastActivity >= times.since
  );
}

/** A session answer: its `expires_at` and, from verify-otp and refresh, its `expires_in`. */
export interface SessionAnswer {
  readonly expires_at: string;
  readonly expires_in?: number;
}

/** The calls keeping alive needs; each answers undefined when it got no session (a 401 ends it itself). */
interface KeepAliveCalls {
  refresh(): Promise<SessionAnswer | undefined>;
  /** The session check, at the token's end: another tab may have refreshed the shared cookie. */
  check(): Promise<SessionAnswer | undefined>;
}

/** The keeper of one tab's session: `start` with each answer, `activity` on the agent's input, `stop` at the end. */
export function sessionKeeper(calls: KeepAliveCalls) {
  let times: SessionTimes | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy = false;
  /** No refresh before this (epoch ms): one that got no answer is not retried on every key press. */
  let notBefore = 0;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void wake(), Math.max(0, delay));
  };
  const start = (answer: SessionAnswer) => {
    const now = Date.now();
    const expiresAt = Date.parse(answer.expires_at);
    const last = answer.expires_in !== undefined && answer.expires_in < FULL_LIFETIME_SECONDS;
    times = { expiresAt, since: now, lastActivity: times?.lastActivity ?? now, last };
    schedule(last ? expiresAt - now : expiresAt - REFRESH_BEFORE_MS - now);
  };
  const call = async (which: keyof KeepAliveCalls) => {
    busy = true;
    const answer = await calls[which]().catch(() => undefined);
    busy = false;
    if (answer) return start(answer);
    notBefore = Date.now() + RETRY_MS;
    if (which === 'refresh' && times) schedule(RETRY_MS);
  };
  async function wake() {
    if (!times || busy) return;
    const now = Date.now();
    if (refreshDue(times, now) && now >= notBefore) return call('refresh');
    if (now >= times.expiresAt) return call('check');
    schedule(times.expiresAt - now);
  }
  return {
    start,
    /** The agent pressed a key or clicked: it is working, and a due refresh happens now. */
    activity() {
      if (!times) return;
      times = { ...times, lastActivity: Date.now() };
      if (!busy && Date.now() >= notBefore && refreshDue(times, Date.now())) void call('refresh');
    },
    stop() {
      clearTimeout(timer);
      times = undefined;
    },
  };
}
