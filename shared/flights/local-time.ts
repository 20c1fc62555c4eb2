/** `YYYY-MM-DD`. */
export type LocalDate = string;

/** The ways a zone's clock is read, each formatter built once per zone (they are costly to build). */
const formatOptions = {
  date: { locale: 'en-CA', options: { year: 'numeric', month: '2-digit', day: '2-digit' } },
  time: { locale: 'en-GB', options: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } },
  parts: {
    locale: 'en-US',
    options: {
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    },
  },
} satisfies Record<string, { locale: string; options: Intl.DateTimeFormatOptions }>;
const formats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string, kind: keyof typeof formatOptions): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(formatOptions[kind].locale, {
      ...formatOptions[kind].options,
      timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * The last date read per zone, with the UTC minute it was read in. Every zone's offset has been a whole
 * number of minutes since 1972, so a zone's date cannot change within a UTC minute; a search asks for
 * "today" at its airports on every request, and formatting costs about 8 µs.
 */
const lastDates = new Map<string, { minute: number; date: LocalDate }>();

/** The calendar date in `timeZone` at the instant `epochMillis`. */
export function localDateAt(timeZone: string, epochMillis: number): LocalDate {
  const minute = Math.floor(epochMillis / 60_000);
  const last = lastDates.get(timeZone);
  if (last?.minute === minute) return last.date;
  const date = zoneFormat(timeZone, 'date').format(epochMillis);
  lastDates.set(timeZone, { minute, date });
  return date;
}

/** The wall-clock time `HH:MM` in `timeZone` at the instant `epochMillis`. */
export function localTimeAt(timeZone: string, epochMillis: number): string {
  return zoneFormat(timeZone, 'time').format(epochMillis);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `epochMillis`, in milliseconds. */
function zoneOffset(timeZone: string, epochMillis: number): number {
  const format = zoneFormat(timeZone, 'parts');
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(epochMillis)) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - Math.floor(epochMillis / 1000) * 1000;
}

/**
 * The instant at which the wall clock in `timeZone` shows `minuteOfDay` on `date`, DST included.
 * Departures are between 06:00 and 23:00, clear of the night-time hours that DST skips or repeats.
 */
export function zonedTimeToEpoch(date: LocalDate, minuteOfDay: number, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * 60_000;
  const first = wall - zoneOffset(timeZone, wall);
  const second = wall - zoneOffset(timeZone, first);
  return second;
}

/** `date` moved by `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whether `value` is a real calendar date in `YYYY-MM-DD` form (proleptic Gregorian, years 0000-9999,
 * as RFC 3339 `full-date` reads them):
 * `2026-13-01`, `2027-02-29` and `0000-00-00` have the right shape but are not dates.
 */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
