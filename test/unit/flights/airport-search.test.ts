import { describe, expect, it } from 'vitest';
import { airportIndex, foldForSearch, searchAirports } from '#shared/flights/airport-search.ts';

describe('foldForSearch', () => {
  it('drops case, accents and apostrophes, and makes every other separator one space', () => {
    expect(foldForSearch('São Paulo–Guarulhos International Airport')).toBe(
      'sao paulo guarulhos international airport',
    );
    expect(foldForSearch("Chicago O'Hare")).toBe('chicago ohare');
    expect(foldForSearch('  Zürich  ')).toBe('zurich');
    expect(foldForSearch('Sa\u0303o')).toBe('sao');
    expect(foldForSearch('İstanbul')).toBe('istanbul');
  });

  it('spells letters that carry no separable accent as they are typed without one', () => {
    expect(foldForSearch('Łódź')).toBe('lodz');
    expect(foldForSearch('Tromsø')).toBe('tromso');
    expect(foldForSearch('Egilsstaðir')).toBe('egilsstadir');
    expect(foldForSearch('Þórshöfn')).toBe('thorshofn');
    expect(foldForSearch('Ærø')).toBe('aero');
    expect(foldForSearch('Đà Nẵng')).toBe('da nang');
    expect(foldForSearch('Diyarbakır')).toBe('diyarbakir');
  });

  it('leaves nothing of a query without letters or digits', () => {
    expect(foldForSearch(' -–’ ')).toBe('');
  });
});

describe('searchAirports', () => {
  const airport = (code: string, name: string, city: string) => ({
    code,
    name,
    city,
    country: 'XX',
    time_zone: 'UTC',
  });
  const index = airportIndex([
    airport('BBB', 'Zeta Field', 'Abbeville'),
    airport('ABB', 'Yankee Airport', 'Somewhere'),
    airport('CCC', 'Alpha Abb Airport', 'Elsewhere'),
    airport('ZZZ', 'Abb Airport', 'Nowhere'),
    airport('DDD', 'Other', 'Far'),
  ]);

  it('ranks the exact code, then starts of code, city or name by name, then inner words by name', () => {
    expect(searchAirports(index, 'abb', 10).map((a) => a.code)).toEqual(['ABB', 'ZZZ', 'BBB', 'CCC']);
  });

  it('cuts at the limit, keeping the best', () => {
    expect(searchAirports(index, 'abb', 2).map((a) => a.code)).toEqual(['ABB', 'ZZZ']);
    expect(searchAirports(index, 'a', 1).map((a) => a.code)).toEqual(['ZZZ']);
  });
});
