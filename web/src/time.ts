/**
 * Times as agents read them: in the airport's own zone, labelled, with `+1` where the day changes
 * (docs/console.md). Pure: the zone comes from the caller (zones.ts); without one, UTC, labelled so.
 * One Intl.DateTimeFormat per zone, made once: 100 offers render without building formatters.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
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
  /** The zone's short name at that moment (`GMT`, `EST`, `GMT+1`), or `UTC` when the zone is unknown. */
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
