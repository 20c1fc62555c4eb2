import { describe, expect, it } from 'vitest';
import { birthDateProblem } from '../../../web/src/ages.ts';

const today = '2026-11-28';
const flight = '2026-12-20';

describe('fn: birthDateProblem', () => {
  it('lets through an age that fits its type on the day of the first flight', () => {
    expect(birthDateProblem('ADULT', '1980-06-23', flight, today)).toBeUndefined();
    expect(birthDateProblem('ADULT', '2014-12-20', flight, today)).toBeUndefined();
    expect(birthDateProblem('CHILD', '2024-12-20', flight, today)).toBeUndefined();
    expect(birthDateProblem('CHILD', '2014-12-21', flight, today)).toBeUndefined();
    expect(birthDateProblem('INFANT', '2024-12-21', flight, today)).toBeUndefined();
  });

  it('counts the age on the first departure, not today: a child turning 12 before the flight is an adult', () => {
    // 11 today, 12 on the day of the flight.
    expect(birthDateProblem('CHILD', '2014-12-10', flight, today)).toMatch(/child must be 2 to 11.*is 12/i);
    expect(birthDateProblem('ADULT', '2014-12-10', flight, today)).toBeUndefined();
  });

  it('says which rule an underage or overage passenger breaks', () => {
    expect(birthDateProblem('ADULT', '2016-01-01', flight, today)).toMatch(/adult must be 12 or older/i);
    expect(birthDateProblem('CHILD', '2025-06-01', flight, today)).toMatch(/child must be 2 to 11/i);
    expect(birthDateProblem('INFANT', '2024-12-20', flight, today)).toMatch(/infant must be under 2/i);
  });

  it('asks for an ISO date that is real and in the past', () => {
    expect(birthDateProblem('ADULT', '', flight, today)).toMatch(/enter the date of birth/i);
    expect(birthDateProblem('ADULT', '23/06/1980', flight, today)).toMatch(/YYYY-MM-DD/);
    expect(birthDateProblem('ADULT', '1980-02-30', flight, today)).toMatch(/YYYY-MM-DD/);
    expect(birthDateProblem('INFANT', today, flight, today)).toMatch(/in the past/);
  });
});
