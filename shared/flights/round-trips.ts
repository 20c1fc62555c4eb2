import { itineraryDuration, type PricedItinerary } from './flight-view.ts';
import { byCodeUnits, rankItineraries } from './ranking.ts';
import type { SortOrder } from './search-request.ts';

/** Each journey's first departure comes at least this long after the previous journey's last arrival. */
const MIN_TURNAROUND_MINUTES = 120;

/** One journey's itineraries, ranked, as columns: read by index, built once per itinerary. */
interface Column {
  readonly items: readonly PricedItinerary[];
  readonly total: readonly number[];
  readonly duration: readonly number[];
  readonly departure: readonly number[];
  readonly arrival: readonly number[];
  readonly numbers: readonly string[];
  /** From each index on: the latest departure, the earliest arrival, the shortest duration. */
  readonly latestDeparture: readonly number[];
  readonly earliestArrival: readonly number[];
  readonly shortest: readonly number[];
}

/** `values` folded from the end: at `i`, `pick` of every value from `i` on. */
function suffix(values: readonly number[], pick: (a: number, b: number) => number): number[] {
  const out = [...values];
  for (let i = out.length - 2; i >= 0; i--) out[i] = pick(out[i] as number, out[i + 1] as number);
  return out;
}

function columnOf(items: readonly PricedItinerary[]): Column {
  const departure = items.map((it) => it.segments[0]?.departureAt ?? 0);
  const arrival = items.map((it) => it.segments.at(-1)?.arrivalAt ?? 0);
  return {
    items,
    total: items.map((it) => it.total),
    duration: items.map((it) => itineraryDuration(it.segments)),
    departure,
    arrival,
    numbers: items.map((it) => it.segments.map((s) => s.flightNumber).join(' ')),
    latestDeparture: suffix(departure, Math.max),
    earliestArrival: suffix(arrival, Math.min),
    shortest: suffix(
      arrival.map((at, i) => at - (departure[i] as number)),
      Math.min,
    ),
  };
}

/**
 * A combination not yet taken: one index per journey, its summed total and duration, and `pivot`, the
 * journey whose index was last moved (the search tree's rule: only journeys from `pivot` on move again).
 */
interface Candidate {
  readonly at: readonly number[];
  readonly total: number;
  readonly duration: number;
  readonly pivot: number;
}

/**
 * docs/API.md §4.1: PRICE by the total, DURATION by all journeys together, DEPARTURE journey by journey.
 * Each breaks ties the way its one-way order does (then each journey's departure, then flight numbers
 * journey by journey), so moving any journey to its next itinerary (each ranked by the one-way order)
 * never makes a combination rank better: that is what lets {@link bestCombinations} walk them in order.
 */
function orderFor(sort: SortOrder, columns: readonly Column[]) {
  const departures = (a: Candidate, b: Candidate) => {
    for (let j = 0; j < columns.length; j++) {
      const d = columns[j] as Column;
      const diff = (d.departure[a.at[j] as number] as number) - (d.departure[b.at[j] as number] as number);
      if (diff !== 0) return diff;
    }
    return 0;
  };
  const numbers = (a: Candidate, b: Candidate) => {
    for (let j = 0; j < columns.length; j++) {
      const n = (columns[j] as Column).numbers;
      const diff = byCodeUnits(n[a.at[j] as number] as string, n[b.at[j] as number] as string);
      if (diff !== 0) return diff;
    }
    return 0;
  };
  const orders: Record<SortOrder, (a: Candidate, b: Candidate) => number> = {
    PRICE: (a, b) => a.total - b.total || a.duration - b.duration || departures(a, b) || numbers(a, b),
    DURATION: (a, b) => a.duration - b.duration || a.total - b.total || departures(a, b) || numbers(a, b),
    DEPARTURE: (a, b) => departures(a, b) || a.total - b.total || a.duration - b.duration || numbers(a, b),
  };
  return orders[sort];
}

/** A binary min-heap: the frontier of combinations not yet taken, best on top. */
class Frontier<T> {
  private readonly items: T[] = [];
  private readonly before: (a: T, b: T) => boolean;
  constructor(before: (a: T, b: T) => boolean) {
    this.before = before;
  }
  get size() {
    return this.items.length;
  }
  push(item: T) {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!this.before(items[at] as T, items[parent] as T)) break;
      [items[at], items[parent]] = [items[parent] as T, items[at] as T];
      at = parent;
    }
  }
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      for (let at = 0; ; ) {
        const [l, r] = [2 * at + 1, 2 * at + 2];
        let best = at;
        if (l < items.length && this.before(items[l] as T, items[best] as T)) best = l;
        if (r < items.length && this.before(items[r] as T, items[best] as T)) best = r;
        if (best === at) break;
        [items[at], items[best]] = [items[best] as T, items[at] as T];
        at = best;
      }
    }
    return top;
  }
}

/** What a search of combinations did: taken, examined (popped), pushed, and how many there were in all. */
interface CombinationStats {
  examined: number;
  pushed: number;
  combinations: number;
}

/** The least time between one journey's arrival and the next one's departure, in milliseconds. */
const GAP_MS = MIN_TURNAROUND_MINUTES * 60_000;

/** The first journey of the combination `at` leaving too soon after the one before, or -1. */
function shortGap(columns: readonly Column[], at: readonly number[]): number {
  for (let j = 1; j < columns.length; j++) {
    const arrived = (columns[j - 1] as Column).arrival[at[j - 1] as number] as number;
    if (((columns[j] as Column).departure[at[j] as number] as number) < arrived + GAP_MS) return j;
  }
  return -1;
}

/**
 * Whether the subtree of `at` may hold a valid combination: journeys before `pivot` are fixed, each
 * later one may take any itinerary from its index on. A lower bound on each journey's arrival is
 * carried forward (its earliest arrival from its index, or the previous bound plus the gap plus its
 * shortest duration); a journey whose latest departure comes before the previous bound plus the gap
 * cannot be flown, so nothing below `at` is valid. Exact: it never rules out a valid combination.
 */
function completable(columns: readonly Column[], at: readonly number[], pivot: number): boolean {
  let arrivedBy = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j] as Column;
    const i = at[j] as number;
    const leaveFrom = arrivedBy + GAP_MS;
    if (j < pivot) {
      arrivedBy = c.arrival[i] as number;
      continue;
    }
    if ((c.latestDeparture[i] as number) < leaveFrom) return false;
    arrivedBy = Math.max(c.earliestArrival[i] as number, leaveFrom + (c.shortest[i] as number));
  }
  return true;
}

/**
 * The best `limit` combinations for `sort`, one itinerary per journey, each journey's first departure at
 * least {@link MIN_TURNAROUND_MINUTES} after the previous journey's last arrival — exactly the first
 * `limit` of every valid combination fully sorted, without building them all.
 *
 * Each journey is ranked by the one-way order; combinations are index vectors, walked best first from a
 * heap that starts at all zeros. Each vector is pushed once, by one parent, with no visited set: a
 * vector's children move one journey `j ≥ pivot` (the journey its parent moved) one step on, so every
 * vector has exactly one parent (itself less its last non-zero journey's step), which ranks no worse.
 * A combination whose gap is too short is not taken but still expands the frontier, unless the short
 * gap lies between journeys before `pivot`: those never move again below it, so its whole subtree is
 * infeasible and is skipped; so is a subtree where some later journey cannot leave late enough
 * whatever it takes ({@link completable}; both exact, not heuristics). Cost: sorting each journey, then O(p·k·log p)
 * for the p combinations examined; memory is the frontier (at most k per examined), never the product.
 */
export function bestCombinations(
  journeys: readonly (readonly PricedItinerary[])[],
  sort: SortOrder,
  limit: number,
): { combinations: PricedItinerary[][]; stats: CombinationStats } {
  const columns = journeys.map((items) => columnOf(rankItineraries(items, sort, items.length)));
  const stats: CombinationStats = {
    examined: 0,
    pushed: 0,
    combinations: columns.reduce((n, c) => n * c.items.length, columns.length ? 1 : 0),
  };
  const found: PricedItinerary[][] = [];
  if (stats.combinations === 0) return { combinations: found, stats };
  const order = orderFor(sort, columns);
  const frontier = new Frontier<Candidate>((a, b) => order(a, b) < 0);
  const sum = (field: 'total' | 'duration', at: readonly number[]) =>
    columns.reduce((n, c, j) => n + (c[field][at[j] as number] as number), 0);
  const push = (at: number[], pivot: number) => {
    stats.pushed += 1;
    frontier.push({ at, total: sum('total', at), duration: sum('duration', at), pivot });
  };

  push(
    columns.map(() => 0),
    0,
  );
  while (found.length < limit && frontier.size > 0) {
    const { at, pivot } = frontier.pop() as Candidate;
    stats.examined += 1;
    if (!completable(columns, at, pivot)) continue;
    const short = shortGap(columns, at);
    if (short < 0) found.push(at.map((i, j) => (columns[j] as Column).items[i] as PricedItinerary));
    // Journeys before the pivot never move in this subtree: a short gap between two of them is final.
    else if (short < pivot) continue;
    for (let j = pivot; j < columns.length; j++) {
      if ((at[j] as number) + 1 >= (columns[j] as Column).items.length) continue;
      const next = [...at];
      next[j] = (at[j] as number) + 1;
      push(next, j);
    }
  }
  return { combinations: found, stats };
}
