import { ZONE_WINDOW, zoneOffsetsByZone } from './zone-offsets.ts';

const MINUTE = 60_000;

/** `YYYY-MM-DD`. */
export type LocalDate = string;

/**
 * A served zone's offsets from the generated table (zone-offsets.ts): the instants its offset changes,
 * with the offset from each, in milliseconds. Reading a zone's clock this way is a binary search; the
 * first Intl.DateTimeFormat of a process would cost 9.5 ms and about 115 M instructions.
 */
interface OffsetTable {
  readonly starts: readonly number[];
  readonly offsets: readonly number[];
}
const tables = new Map<string, OffsetTable | null>();

function offsetTable(timeZone: string): OffsetTable | null {
  let table = tables.get(timeZone);
  if (table === undefined) {
    const entry = zoneOffsetsByZone[timeZone];
    table = null;
    if (entry !== undefined) {
      const [first = '0', ...changes] = entry.split(' ');
      const starts: number[] = [ZONE_WINDOW.from];
      const offsets: number[] = [Number(first) * MINUTE];
      for (const change of changes) {
        const [at = '', offset = ''] = change.split('=');
        starts.push(ZONE_WINDOW.from + Number.parseInt(at, 36) * MINUTE);
        offsets.push(Number(offset) * MINUTE);
      }
      table = { starts, offsets };
    }
    tables.set(timeZone, table);
  }
  return table;
}

const intlFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `timeZone`'s offset at `epochMillis` in milliseconds, as the runtime's ICU data gives it: for zones
 * and instants outside the table (airports the network does not serve, far dates), and to build it.
 */
export function intlOffset(timeZone: string, epochMillis: number): number {
  let format = intlFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    intlFormats.set(timeZone, format);
  }
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

/** How far `timeZone`'s wall clock is ahead of UTC at `epochMillis`, in milliseconds. */
function zoneOffset(timeZone: string, epochMillis: number): number {
  const inWindow = epochMillis >= ZONE_WINDOW.from && epochMillis < ZONE_WINDOW.to;
  const table = inWindow ? offsetTable(timeZone) : null;
  if (!table) return intlOffset(timeZone, epochMillis);
  // The last change at or before the instant.
  let [low, high] = [0, table.starts.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((table.starts[middle] ?? 0) <= epochMillis) low = middle;
    else high = middle - 1;
  }
  return table.offsets[low] ?? 0;
}

/** The wall clock in `timeZone` at `epochMillis`, as an ISO 8601 text (read as local, not UTC). */
function wallClock(timeZone: string, epochMillis: number): string {
  const wall = new Date(epochMillis + zoneOffset(timeZone, epochMillis));
  return wall.toISOString();
}

/** The calendar date in `timeZone` at the instant `epochMillis`. */
export function localDateAt(timeZone: string, epochMillis: number): LocalDate {
  return wallClock(timeZone, epochMillis).slice(0, 10);
}

/** The wall-clock time `HH:MM` in `timeZone` at the instant `epochMillis`. */
export function localTimeAt(timeZone: string, epochMillis: number): string {
  return wallClock(timeZone, epochMillis).slice(11, 16);
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
