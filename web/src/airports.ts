import { useEffect, useState } from 'preact/hooks';
import { client, type Outcome, type Schemas, settle } from './api.ts';
import { readStored, writeStored } from './storage.ts';

/** An airport as `POST /api/airports/search` answers it (docs/API.md §4.7). */
export type Airport = Schemas['AirportsSearchResponse']['data'][number];

/** Airports matching `query`, best first (an exact code first); `signal` drops a stale question. */
export function searchAirports(
  query: string,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<Outcome<Schemas['AirportsSearchResponse']>> {
  return settle(
    client.POST('/api/airports/search', {
      body: { query, limit: options.limit ?? 8 },
      ...(options.signal && { signal: options.signal }),
    }),
  );
}

/**
 * Each airport's time zone, for showing times locally (docs/decisions.md, "Agent console"). Offers
 * carry only airport codes; the zones come from the airport search the suggestions already use (one
 * exact-code question per airport not yet known), remembered for the tab, so a result list costs a
 * few small requests once, and the bundle carries no zone table.
 */
const zones = new Map<string, string>(Object.entries(readStored<Record<string, string>>('zones') ?? {}));
const asked = new Set<string>();
const listeners = new Set<() => void>();

export const zoneOf = (code: string): string | undefined => zones.get(code);

/** Remembers the zones of airports met elsewhere (a picked suggestion). */
export function rememberAirports(airports: readonly Airport[]): void {
  let added = false;
  for (const airport of airports) {
    if (airport.time_zone && zones.get(airport.code) !== airport.time_zone) {
      zones.set(airport.code, airport.time_zone);
      added = true;
    }
  }
  if (!added) return;
  writeStored('zones', Object.fromEntries(zones));
  for (const listener of listeners) listener();
}

/** Asks once for the zone of every code not known yet; the listeners re-render once they are in. */
export async function loadZones(codes: Iterable<string>): Promise<void> {
  const missing = [...new Set(codes)].filter((code) => !zones.has(code) && !asked.has(code));
  if (missing.length === 0) return;
  for (const code of missing) asked.add(code);
  const answers = await Promise.all(missing.map((code) => searchAirports(code, { limit: 1 })));
  // A question that failed may be asked again by the next list; an answer without the code is final.
  missing.forEach((code, index) => {
    if (!answers[index]?.ok) asked.delete(code);
  });
  rememberAirports(answers.flatMap((answer) => (answer.ok ? answer.body.data : [])));
}

/**
 * Re-renders the caller when zones arrive, after asking for those of `codes`. Returns a number that
 * changes with each arrival, for memos that depend on the zones.
 */
export function useZones(codes: readonly string[]): number {
  const [version, setVersion] = useState(0);
  const key = codes.join(',');
  useEffect(() => {
    const update = () => setVersion((v) => v + 1);
    listeners.add(update);
    void loadZones(codes);
    return () => listeners.delete(update);
    // Dependencies: `key` is `codes` by value.
  }, [key]);
  return version;
}
