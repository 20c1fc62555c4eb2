import * as z from 'zod/mini';
import { type ErrorDetail, PriceChangedError, SeatUnavailableError, ValidationError } from '../errors.ts';
import type { BagOffer } from '../flights/bags.ts';
import type { MapCabin } from '../flights/seat-maps.ts';
import { minorUnits, toMajor } from '../money.ts';
import type { OfferServices, SupplierOffer } from '../supply/port.ts';

/**
 * Bags and seats chosen at create (docs/API.md §4.10), checked against the offer's services and priced:
 * what does not exist on the offer is a 400 on its field; a seat taken (or a bag no longer sold) is a 409
 * SEAT_UNAVAILABLE detail. Money in minor units.
 */

/** create's `services` and `seats` fields; both optional. Built when first used (http/validate.ts). */
export const extrasFields = () => ({
  services: z.optional(
    z
      .array(
        z.object({
          id: z.string().check(z.minLength(1), z.maxLength(255)),
          quantity: z.int().check(z.minimum(1), z.maximum(9)),
        }),
      )
      .check(
        z.maxLength(100),
        z.meta({
          description: 'Bags from offer/services: each id at most once, quantity within its max_quantity',
        }),
      ),
  ),
  seats: z.optional(
    z
      .array(
        z.object({
          segment_index: z.int().check(z.minimum(0), z.maximum(23)),
          passenger_index: z.int().check(z.minimum(0), z.maximum(17)),
          designator: z.string().check(z.regex(/^[0-9]{1,3}[A-Z]$/)),
        }),
      )
      .check(
        z.maxLength(216),
        z.meta({
          description: 'Seats from offer/services: one per passenger with a seat and segment at most',
        }),
      ),
  ),
});

interface ChosenExtras {
  readonly services?: readonly { id: string; quantity: number }[];
  readonly seats?: readonly { segment_index: number; passenger_index: number; designator: string }[];
}

/** A bag bought, as the booking keeps it. */
interface BoughtBag {
  readonly id: string;
  readonly journeyIndex: number;
  readonly passengerIndex: number;
  readonly weightKg: number;
  readonly quantity: number;
  /** Per bag. */
  readonly price: number;
}

/** A seat bought, as the booking keeps it. */
interface BoughtSeat {
  readonly segmentIndex: number;
  readonly passengerIndex: number;
  readonly designator: string;
  readonly price: number;
  /** The request field that chose it (for SEAT_UNAVAILABLE). */
  readonly path: string;
}

interface PricedExtras {
  readonly bags: readonly BoughtBag[];
  readonly seats: readonly BoughtSeat[];
  /** What they cost together. */
  readonly cost: number;
}

type Checked =
  | { readonly kind: 'invalid'; readonly problems: ErrorDetail[] }
  | { readonly kind: 'unavailable'; readonly details: ErrorDetail[] }
  | { readonly kind: 'priced'; readonly extras: PricedExtras };

/** Whether a request chose anything beyond the flight. */
export const choseExtras = (chosen: ChosenExtras) =>
  (chosen.services?.length ?? 0) > 0 || (chosen.seats?.length ?? 0) > 0;

/** Checks and prices `chosen` against the offer's services; `paxTypes`: create's passengers in order. */
function priceExtras(chosen: ChosenExtras, services: OfferServices, paxTypes: readonly string[]): Checked {
  const problems: ErrorDetail[] = [];
  const unavailable: ErrorDetail[] = [];
  const bags = chooseBags(chosen.services ?? [], services.bags, problems);
  const seats = chooseSeats(chosen.seats ?? [], services.seatMaps, paxTypes, problems, unavailable);
  if (problems.length > 0) return { kind: 'invalid', problems };
  if (unavailable.length > 0) return { kind: 'unavailable', details: unavailable };
  const cost =
    bags.reduce((sum, bag) => sum + bag.price * bag.quantity, 0) + seats.reduce((sum, s) => sum + s.price, 0);
  return { kind: 'priced', extras: { bags, seats, cost } };
}

function chooseBags(
  chosen: readonly { id: string; quantity: number }[],
  offered: readonly BagOffer[],
  problems: ErrorDetail[],
): BoughtBag[] {
  const seen = new Set<string>();
  return chosen.flatMap((choice, i) => {
    const bag = offered.find((b) => b.id === choice.id);
    const at = `services.${i}`;
    if (!bag) return problem(problems, `${at}.id`, 'is not a service of this offer (see offer/services)');
    if (seen.has(bag.id))
      return problem(problems, `${at}.id`, 'is chosen twice: send it once with its quantity');
    seen.add(bag.id);
    if (choice.quantity > bag.maxQuantity)
      return problem(problems, `${at}.quantity`, `must be at most ${bag.maxQuantity}`);
    const { id, journeyIndex, passengerIndex, weightKg, price } = bag;
    return [{ id, journeyIndex, passengerIndex, weightKg, quantity: choice.quantity, price }];
  });
}

function chooseSeats(
  chosen: NonNullable<ChosenExtras['seats']>,
  maps: OfferServices['seatMaps'],
  paxTypes: readonly string[],
  problems: ErrorDetail[],
  unavailable: ErrorDetail[],
): BoughtSeat[] {
  const taken = new Set<string>();
  return chosen.flatMap((choice, i) => {
    const at = `seats.${i}`;
    const type = paxTypes[choice.passenger_index];
    if (type === undefined)
      return problem(problems, `${at}.passenger_index`, 'is not a passenger of this booking');
    if (type === 'INFANT')
      return problem(problems, `${at}.passenger_index`, 'is an infant: infants get no seat');
    const map = maps.find((m) => m.segmentIndex === choice.segment_index);
    if (!map)
      return problem(problems, `${at}.segment_index`, 'is not a segment of this offer with a seat map');
    const passengerKey = `p${choice.segment_index}/${choice.passenger_index}`;
    const seatKey = `s${choice.segment_index}/${choice.designator}`;
    if (taken.has(passengerKey))
      return problem(problems, at, 'gives a passenger a second seat on the segment');
    if (taken.has(seatKey)) return problem(problems, `${at}.designator`, 'is chosen for two passengers');
    taken.add(passengerKey).add(seatKey);
    const seat = seatOf(map.cabins, choice.designator);
    if (!seat) return problem(problems, `${at}.designator`, 'is not a seat of this aircraft');
    if (!seat.available || seat.price === null) {
      unavailable.push({
        path: `${at}.designator`,
        message: `Seat ${choice.designator} is no longer available`,
      });
      return [];
    }
    const { segment_index: segmentIndex, passenger_index: passengerIndex, designator } = choice;
    return [{ segmentIndex, passengerIndex, designator, price: seat.price, path: `${at}.designator` }];
  });
}

const problem = (problems: ErrorDetail[], path: string, message: string): never[] => {
  problems.push({ path, message });
  return [];
};

function seatOf(cabins: readonly MapCabin[], designator: string) {
  for (const cabin of cabins)
    for (const row of cabin.rows)
      for (const section of row.sections)
        for (const element of section)
          if (element.type === 'seat' && element.designator === designator) return element;
  return undefined;
}

/**
 * create's extras (docs/API.md §4.10): checked against the offer's services, then the total sent must be
 * the offer's price plus theirs (PRICE_CHANGED otherwise, with the offer's Flight as quoted).
 */
export async function checkedExtras(
  offer: SupplierOffer,
  body: ChosenExtras & { total_price: number; passengers: readonly { pax_type: string }[] },
  flight: unknown,
): Promise<PricedExtras> {
  const services = offer.services ? await offer.services() : undefined;
  if (!services)
    throw new ValidationError([{ path: 'services', message: 'this offer sells no bags or seats' }]);
  const checked = priceExtras(
    body,
    services,
    body.passengers.map((p) => p.pax_type),
  );
  if (checked.kind === 'invalid') throw new ValidationError(checked.problems);
  if (checked.kind === 'unavailable') throw new SeatUnavailableError(checked.details);
  const total = offer.total + checked.extras.cost;
  if (minorUnits(String(body.total_price), offer.currency) !== total)
    throw new PriceChangedError({
      previous_total_price: body.total_price,
      total_price: toMajor(total, offer.currency),
      currency: offer.currency,
      flight,
    });
  return checked.extras;
}

/** The booking's record of its extras: the bags bought, and each passenger's seats, money in major units. */
export function boughtExtras<P extends object>(
  extras: PricedExtras | undefined,
  passengers: readonly P[],
  currency: string,
) {
  if (!extras) return { passengers: [...passengers] };
  const money = (minor: number) => ({ amount: toMajor(minor, currency), currency });
  return {
    services: extras.bags.map((bag) => ({
      id: bag.id,
      journey_index: bag.journeyIndex,
      passenger_index: bag.passengerIndex,
      kind: 'checked' as const,
      weight_kg: bag.weightKg,
      quantity: bag.quantity,
      price: money(bag.price),
    })),
    passengers: passengers.map((passenger, i) => {
      const seats = extras.seats.filter((s) => s.passengerIndex === i);
      if (seats.length === 0) return passenger;
      return {
        ...passenger,
        seats: seats.map((s) => ({
          segment_index: s.segmentIndex,
          designator: s.designator,
          price: money(s.price),
        })),
      };
    }),
  };
}

/** A booking's extras as stored: its bags (each with its journey) and its passengers' seats (each with its segment). */
interface StoredExtras {
  readonly services?:
    | readonly { journey_index: number; quantity: number; price: { amount: number } }[]
    | undefined;
  readonly passengers: readonly {
    seats?: readonly { segment_index: number; price: { amount: number } }[] | undefined;
  }[];
}

/**
 * What a booking's bags and seats cost journey by journey (minor units of `currency`), `lengths` being
 * each journey's number of segments: a bag counts in its `journey_index`, a seat in the journey of its
 * segment. A cancel refunds them with their journey's fare, a change gives back those of the journeys
 * changed (docs/decisions.md, "Bags and seats").
 */
export function journeyExtras(booking: StoredExtras, lengths: readonly number[], currency: string): number[] {
  const cents = (amount: number) => minorUnits(String(amount), currency) ?? 0;
  const starts = lengths.map((_, j) => lengths.slice(0, j).reduce((n, l) => n + l, 0));
  const journeyOf = (segment: number) => starts.findLastIndex((start) => start <= segment);
  const costs = lengths.map(() => 0);
  const add = (j: number, amount: number) => {
    if (j >= 0 && j < costs.length) costs[j] = (costs[j] ?? 0) + amount;
  };
  for (const bag of booking.services ?? []) add(bag.journey_index, bag.quantity * cents(bag.price.amount));
  for (const passenger of booking.passengers)
    for (const seat of passenger.seats ?? []) add(journeyOf(seat.segment_index), cents(seat.price.amount));
  return costs;
}
