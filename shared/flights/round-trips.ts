import { itineraryDuration, type PricedItinerary } from './flight-view.ts';
import { byCodeUnits, rankItineraries } from './ranking.ts';
import type { SortOrder } from './search-request.ts';

/** The inbound's first departure comes at least this long after the outbound's last arrival. */
export const MIN_TURNAROUND_MINUTES = 120;

/** What a pair of directions is ranked by. */
interface PairKey {
  total: number;
  duration: number;
  outDeparture: number;
  inDeparture: number;
  outNumbers: string;
  inNumbers: string;
}

const numbers = (it: PricedItinerary) => it.segments.map((s) => s.flightNumber).join(' ');
const keyOf = (out: PricedItinerary, back: PricedItinerary): PairKey => ({
  total: out.total + back.total,
  duration: itineraryDuration(out.segments) + itineraryDuration(back.segments),
  outDeparture: out.segments[0]?.departureAt ?? 0,
  inDeparture: back.segments[0]?.departureAt ?? 0,
  outNumbers: numbers(out),
  inNumbers: numbers(back),
});

const byFlights = (a: PairKey, b: PairKey) =>
  byCodeUnits(a.outNumbers, b.outNumbers) || byCodeUnits(a.inNumbers, b.inNumbers);

/**
 * docs/API.md §4.1: PRICE by the total, DURATION by both ways together, DEPARTURE by the outbound's then
 * the inbound's departure. Each breaks ties the way its one-way order does, so moving to the next
 * itinerary of either direction (each sorted by the one-way order) never makes a pair rank better:
 * that is what lets {@link bestRoundTrips} walk the pairs in order without building them all.
 */
const pairOrder: Record<SortOrder, (a: PairKey, b: PairKey) => number> = {
  PRICE: (a, b) =>
    a.total - b.total ||
    a.duration - b.duration ||
    a.outDeparture - b.outDeparture ||
    a.inDeparture - b.inDeparture ||
    byFlights(a, b),
  DURATION: (a, b) =>
    a.duration - b.duration ||
    a.total - b.total ||
    a.outDeparture - b.outDeparture ||
    a.inDeparture - b.inDeparture ||
    byFlights(a, b),
  DEPARTURE: (a, b) =>
    a.outDeparture - b.outDeparture ||
    a.inDeparture - b.inDeparture ||
    a.total - b.total ||
    a.duration - b.duration ||
    byFlights(a, b),
};

interface Candidate {
  i: number;
  j: number;
  key: PairKey;
}

/** A binary min-heap: the frontier of pairs not yet taken, best on top. */
class Frontier {
  private readonly items: Candidate[] = [];
  private readonly before: (a: Candidate, b: Candidate) => boolean;
  constructor(before: (a: Candidate, b: Candidate) => boolean) {
    this.before = before;
  }
  get size() {
    return this.items.length;
  }
  push(item: Candidate) {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at] as Candidate, items[parent] as Candidate)) break;
      [items[at], items[parent]] = [items[parent] as Candidate, items[at] as Candidate];
      at = parent;
    }
  }
  pop(): Candidate | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let at = 0; ; ) {
        const [l, r] = [2 * at + 1, 2 * at + 2];
        let best = at;
        if (l < items.length && this.before(items[l] as Candidate, items[best] as Candidate)) best = l;
        if (r < items.length && this.before(items[r] as Candidate, items[best] as Candidate)) best = r;
        if (best === at) break;
        [items[at], items[best]] = [items[best] as Candidate, items[at] as Candidate];
        at = best;
      }
    }
    return top;
  }
}

/**
 * The best `limit` round trips for `sort`, one outbound with one inbound leaving at least
 * {@link MIN_TURNAROUND_MINUTES} after the outbound lands, without building every pair: both directions
 * are sorted, and pairs are taken from a frontier that starts at the two best and, for each pair
 * taken, adds its two successors (next outbound, next inbound). A pair whose turnaround is too short is
 * skipped but still expands the frontier. Cost: O(n log n + m log m) to sort, then O(p log p) for the
 * p pairs examined — p is `limit` plus the pairs skipped for turnaround, at most n·m on a same-day
 * return where little connects; `examined` reports p.
 */
export function bestRoundTrips(
  outbound: readonly PricedItinerary[],
  inbound: readonly PricedItinerary[],
  sort: SortOrder,
  limit: number,
): { pairs: [PricedItinerary, PricedItinerary][]; examined: number } {
  const outs = rankItineraries(outbound, sort, outbound.length);
  const backs = rankItineraries(inbound, sort, inbound.length);
  const order = pairOrder[sort];
  const frontier = new Frontier((a, b) => order(a.key, b.key) < 0);
  const seen = new Set<number>();
  const offer = (i: number, j: number) => {
    const out = outs[i];
    const back = backs[j];
    if (!out || !back || seen.has(i * backs.length + j)) return;
    seen.add(i * backs.length + j);
    frontier.push({ i, j, key: keyOf(out, back) });
  };
  const pairs: [PricedItinerary, PricedItinerary][] = [];
  let examined = 0;
  offer(0, 0);
  while (pairs.length < limit && frontier.size > 0) {
    const { i, j } = frontier.pop() as Candidate;
    examined += 1;
    const out = outs[i] as PricedItinerary;
    const back = backs[j] as PricedItinerary;
    const landed = out.segments.at(-1)?.arrivalAt ?? 0;
    if ((back.segments[0]?.departureAt ?? 0) >= landed + MIN_TURNAROUND_MINUTES * 60_000)
      pairs.push([out, back]);
    offer(i + 1, j);
    offer(i, j + 1);
  }
  return { pairs, examined };
}
