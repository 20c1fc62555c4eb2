import { convertLocalToUTCByZone } from 'airport-utils/converter';

/** `YYYY-MM-DD`. */
export type LocalDate = string;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date in `timeZone` at the instant `epochMillis`. */
export function localDateAt(timeZone: string, epochMillis: number): LocalDate {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  return format.format(epochMillis);
}

/**
 * The instant at which the wall clock in `timeZone` shows `minuteOfDay` on `date`, DST included.
 * Departures are between 06:00 and 23:00, clear of the night-time hours that DST skips or repeats.
 */
export function zonedTimeToEpoch(date: LocalDate, minuteOfDay: number, timeZone: string): number {
  const hh = String(Math.floor(minuteOfDay / 60)).padStart(2, '0');
  const mm = String(minuteOfDay % 60).padStart(2, '0');
  return Date.parse(convertLocalToUTCByZone(`${date}T${hh}:${mm}:00`, timeZone));
}

/** `date` moved by `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether `value` is a real calendar date in `YYYY-MM-DD` form. */
export function isCalendarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
