import { describe, expect, it } from 'vitest';
import {
  dayMark,
  daysBetween,
  formatDuration,
  isIsoDate,
  localTime,
  yourTime,
} from '../../../web/src/time.ts';

describe('console times', () => {
  it("shows a UTC time at the airport's local time, labelled with the zone", () => {
    // 13:30 UTC on 1 December is 13:30 in London (GMT) and 08:30 in New York (EST).
    expect(localTime('2026-12-01T13:30:00Z', 'Europe/London')).toEqual({
      date: '2026-12-01',
      time: '13:30',
      hour: 13,
      zoneLabel: 'GMT',
    });
    expect(localTime('2026-12-01T13:30:00Z', 'America/New_York')).toMatchObject({
      time: '08:30',
      zoneLabel: 'EST',
    });
    // Summer time: 13:30 UTC in July is 14:30 BST in London, 15:30 in Paris.
    expect(localTime('2026-07-01T13:30:00Z', 'Europe/London').time).toBe('14:30');
    expect(localTime('2026-07-01T13:30:00Z', 'Europe/Paris')).toMatchObject({
      time: '15:30',
      zoneLabel: 'CEST',
    });
  });

  it('moves the calendar day with the zone (Tokyo is already tomorrow)', () => {
    const departure = localTime('2026-12-01T21:00:00Z', 'Europe/London');
    const arrival = localTime('2026-12-02T08:00:00Z', 'Asia/Tokyo');

    expect(arrival).toMatchObject({ date: '2026-12-02', time: '17:00' });
    expect(dayMark(daysBetween(departure.date, arrival.date))).toBe('+1');
    expect(dayMark(daysBetween('2026-12-31', '2027-01-02'))).toBe('+2');
    expect(dayMark(daysBetween('2026-12-02', '2026-12-01'))).toBe('-1');
    expect(dayMark(daysBetween('2026-12-02', '2026-12-02'))).toBe('');
  });

  it('says UTC when the zone is not known, rather than a wrong local time', () => {
    expect(localTime('2026-12-01T23:30:00Z', undefined)).toEqual({
      date: '2026-12-01',
      time: '23:30',
      hour: 23,
      zoneLabel: 'UTC',
    });
    expect(localTime('2026-12-01T23:30:00Z', 'Not/AZone')).toMatchObject({ time: '23:30', zoneLabel: 'UTC' });
  });

  it('writes durations in hours and minutes', () => {
    expect(formatDuration(465)).toBe('7h 45m');
    expect(formatDuration(55)).toBe('55m');
    expect(formatDuration(120)).toBe('2h');
    expect(formatDuration(65)).toBe('1h 05m');
  });

  it('names each zone as people say it, from the IANA zone, in winter and in summer', () => {
    const at = (iso: string, zone: string) => localTime(iso, zone).zoneLabel;
    expect(at('2026-12-01T13:30:00Z', 'Asia/Tokyo')).toBe('JST');
    expect(at('2026-12-01T13:30:00Z', 'Australia/Sydney')).toBe('AEDT');
    expect(at('2026-07-01T13:30:00Z', 'Australia/Sydney')).toBe('AEST');
    expect(at('2026-07-01T13:30:00Z', 'Europe/London')).toBe('BST');
    expect(at('2026-07-01T13:30:00Z', 'America/New_York')).toBe('EDT');
    // A zone with no name in common use: its offset.
    expect(at('2026-12-01T13:30:00Z', 'America/Sao_Paulo')).toBe('GMT-3');
  });

  it("says a deadline on the agent's clock, with its zone's name and whose clock it is", () => {
    expect(yourTime('2026-12-01T13:30:00Z', 'Asia/Tokyo')).toBe('Tue, 1 Dec 2026, 22:30 JST (your time)');
    expect(yourTime('2026-12-01T13:30:00Z', 'Europe/London')).toBe('Tue, 1 Dec 2026, 13:30 GMT (your time)');
  });

  it('takes a date typed in ISO order that is a real day, and nothing else', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('12/24/2026')).toBe(false);
    expect(isIsoDate('2026-1-5')).toBe(false);
  });
});
