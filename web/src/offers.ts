import type { Schemas } from './api.ts';

type PaxType = Schemas['Passenger']['pax_type'];

/** An offer as search answers it (docs/API.md §4.1), with what its fare includes (turn 5). */
export type Offer = Schemas['Flight'];
/** One journey of an offer: its segments, conditions, bags included and fare brand. */
export type Slice = Offer['outbound'];
export type Conditions = Offer['conditions'];
/** Included pieces per passenger type on one journey. */
export type Baggage = Slice['baggage'][number];
/** One passenger type's share of the price; amounts null where a supplier does not split them. */
export type PriceLine = Offer['price_breakdown'][number];

export const slicesOf = (offer: Offer): Slice[] =>
  offer.slices ?? [offer.outbound, ...(offer.inbound ? [offer.inbound] : [])];

/** A journey's heading: Outbound and Return for a round trip, Journey 1, 2, … for a multi-city trip. */
export function journeyName(offer: Offer, index: number): string {
  const roundTrip = offer.inbound !== undefined;
  if (index === 0 && slicesOf(offer).length === 1) return 'Outbound';
  return roundTrip ? (['Outbound', 'Return'][index] ?? `Journey ${index + 1}`) : `Journey ${index + 1}`;
}

/** Every airport an offer touches, for asking their zones. */
export function airportsOf(offers: readonly Offer[]): string[] {
  const codes = new Set<string>();
  for (const offer of offers)
    for (const slice of slicesOf(offer))
      for (const segment of slice.segments) codes.add(segment.origin).add(segment.destination);
  return [...codes].sort();
}

/** The parts of the day the departure filter offers, by local hour at the first airport. */
export const DAY_PARTS = [
  { id: 'night', label: 'Night (00–06)', from: 0, to: 6 },
  { id: 'morning', label: 'Morning (06–12)', from: 6, to: 12 },
  { id: 'afternoon', label: 'Afternoon (12–18)', from: 12, to: 18 },
  { id: 'evening', label: 'Evening (18–24)', from: 18, to: 24 },
] as const;

export interface Filters {
  /** The most stops on any journey: `any`, or 0 / 1. */
  maxStops: 'any' | 0 | 1;
  /** Carrier codes left out; an offer shows when none of its carriers is. */
  hiddenCarriers: string[];
  /** Day parts left out for the first departure; empty = every time. */
  hiddenDayParts: string[];
}

export const NO_FILTERS: Filters = { maxStops: 'any', hiddenCarriers: [], hiddenDayParts: [] };

/** The results' order, chosen on the results (no new search); a new search asks for the same. */
export type Sort = Schemas['SearchRequest']['sort'];

/** The carriers to leave out so that only `code` shows ("only this airline"). */
export const onlyCarrier = (carriers: readonly { code: string }[], code: string): string[] =>
  carriers.filter((carrier) => carrier.code !== code).map((carrier) => carrier.code);

const firstDepartures = (offer: Offer): string =>
  slicesOf(offer)
    .map((slice) => slice.segments[0]?.departure_at ?? '')
    .join();
const totalMinutes = (offer: Offer): number =>
  slicesOf(offer).reduce((sum, slice) => sum + slice.duration_minutes, 0);

/**
 * `offers` in the order `sort` says, as search would give them (docs/API.md §4.1): `PRICE` by the total,
 * `DURATION` by all journeys together, `DEPARTURE` journey by journey; ties by price. A new array.
 */
export function sortOffers(offers: readonly Offer[], sort: Sort): Offer[] {
  const byPrice = (a: Offer, b: Offer) => a.total_price - b.total_price;
  const order: Record<Sort, (a: Offer, b: Offer) => number> = {
    PRICE: byPrice,
    DURATION: (a, b) => totalMinutes(a) - totalMinutes(b) || byPrice(a, b),
    DEPARTURE: (a, b) => firstDepartures(a).localeCompare(firstDepartures(b)) || byPrice(a, b),
  };
  return [...offers].sort(order[sort]);
}

/**
 * How long a hold of `offer` would last if made at `now` (ms), by the built-in network's rule
 * (docs/API.md §4.4): 24 hours, ending no later than 48 hours before the first departure; undefined
 * where that leaves under an hour, so Hold would be refused (`HOLD_NOT_AVAILABLE`) and is not offered.
 */
export function holdLength(offer: Offer, now: number): number | undefined {
  const first = slicesOf(offer)[0]?.segments[0];
  if (!first) return undefined;
  const length = Math.min(24 * 3600_000, Date.parse(first.departure_at) - 48 * 3600_000 - now);
  return length >= 3600_000 ? length : undefined;
}

/** The carriers of the results, by name, for the airline filter. */
export function carriersOf(offers: readonly Offer[]): { code: string; name: string }[] {
  const names = new Map<string, string>();
  for (const offer of offers)
    for (const slice of slicesOf(offer))
      for (const segment of slice.segments) names.set(segment.carrier_code, segment.carrier_name);
  return [...names].map(([code, name]) => ({ code, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The offers the filters let through, in the order search gave (no new search). `hourAt` gives the
 * local hour of a UTC time at an airport (zones.ts and time.ts; UTC while a zone is unknown).
 */
export function filterOffers(
  offers: readonly Offer[],
  filters: Filters,
  hourAt: (iso: string, airport: string) => number,
): Offer[] {
  const hiddenCarriers = new Set(filters.hiddenCarriers);
  const parts = DAY_PARTS.filter((part) => !filters.hiddenDayParts.includes(part.id));
  const maxStops = filters.maxStops === 'any' ? Number.POSITIVE_INFINITY : filters.maxStops;
  return offers.filter((offer) => {
    const slices = slicesOf(offer);
    if (slices.some((slice) => slice.stops > maxStops)) return false;
    if (slices.some((slice) => slice.segments.some((segment) => hiddenCarriers.has(segment.carrier_code))))
      return false;
    if (filters.hiddenDayParts.length === 0) return true;
    const first = slices[0]?.segments[0];
    if (!first) return true;
    const hour = hourAt(first.departure_at, first.origin);
    return parts.some((part) => hour >= part.from && hour < part.to);
  });
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `€412.40`: the currency's own digits, never through string math on floats. */
export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
    } catch {
      format = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
}

/** One passenger type per seat searched, in the order the offer says (adults, children, infants). */
export function passengerTypes(passengers: Offer['passengers']): PaxType[] {
  return [
    ...Array<PaxType>(passengers.adults).fill('ADULT'),
    ...Array<PaxType>(passengers.children).fill('CHILD'),
    ...Array<PaxType>(passengers.infants).fill('INFANT'),
  ];
}
