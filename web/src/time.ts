/**
 * Every time the console shows, said one way (docs/console.md, Times): with its zone's name (`JST`,
 * `AEDT`, `GMT`, from the IANA zone) and whose clock it is. Flight times are in the airport's zone
 * ({@link localTime}, with `+1` where the day changes); deadlines and "booked at" in the agent's own
 * zone, named and said to be theirs ({@link yourTime}). Pure: an airport's zone comes from the caller
 * (airports.ts); without one, UTC, labelled so. One Intl.DateTimeFormat per zone, made once: 100
 * offers render without building formatters.
 */

/**
 * The locales whose short zone names are the ones people say (`ja-JP` says `JST`, `en-AU` says `AEDT`,
 * `en-GB` says `BST` and `CET`): the first that names a zone with letters in winter and in summer is
 * used for it; where none does, the offset (`GMT-3`).
 */
const NAMING_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-SG', 'en-HK', 'en-ZA', 'ja-JP', 'en-NZ'];
const WINTER_AND_SUMMER = [new Date('2026-01-15T12:00:00Z'), new Date('2026-07-15T12:00:00Z')];

function namingLocale(zone: string): string {
  const named = (locale: string) => {
    const format = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    return WINTER_AND_SUMMER.every((at) =>
      /^[A-Z]{2,5}$/.test(format.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? ''),
    );
  };
  return NAMING_LOCALES.find(named) ?? 'en-GB';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(namingLocale(zone), {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

interface LocalTime {
  /** `YYYY-MM-DD`, the calendar day at the airport. */
  date: string;
  /** `HH:MM`, 24-hour. */
  time: string;
  /** The hour, 0–23, for filters by time of day. */
  hour: number;
  /** The zone's name at that moment (`GMT`, `JST`, `AEDT`, else its offset `GMT-3`), or `UTC` when the zone is unknown. */
  zoneLabel: string;
}

/** `iso` (UTC, with Z) at the airport whose IANA zone is `zone`; in UTC when `zone` is undefined or unknown. */
export function localTime(iso: string, zone: string | undefined): LocalTime {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatterFor(zone ?? 'UTC').formatToParts(new Date(iso));
  } catch {
    // A zone this browser does not know: UTC, and said so, rather than a wrong local time.
    return localTime(iso, undefined);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const hour = part('hour');
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${hour}:${part('minute')}`,
    hour: Number(hour),
    zoneLabel: zone ? part('timeZoneName') : 'UTC',
  };
}

/** Calendar days from `from` to `to` (`YYYY-MM-DD`): 1 for the next day, -1 for the day before. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `+1`, `+2`, `-1`, or empty for the same day. */
export const dayMark = (days: number): string => (days === 0 ? '' : days > 0 ? `+${days}` : `${days}`);

/** `7h 45m`, `55m`, `2h`. */
export function formatDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${String(rest).padStart(2, '0')}m`;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** A day as agents read it: `Sat, 28 Nov 2026`, from `YYYY-MM-DD` (no zone: it is already local). */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T12:00:00Z`));
}

/** Today's date where the browser is, `YYYY-MM-DD`: the earliest a search date may be. */
export function todayHere(now: Date = new Date()): string {
  const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/** The agent's own zone (the browser's), IANA; UTC where the browser does not say. */
const yourZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * A moment on the agent's clock (a hold's deadline, when a booking was made): `Sat, 28 Nov 2026, 14:05
 * GMT (your time)`. `zone` is for tests; the agent's own by default.
 */
export function yourTime(iso: string, zone: string = yourZone()): string {
  const at = localTime(iso, zone);
  return `${formatDay(at.date)}, ${at.time} ${at.zoneLabel} (your time)`;
}

/** A date typed in ISO order, `YYYY-MM-DD`, that is a real day of the calendar. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}
