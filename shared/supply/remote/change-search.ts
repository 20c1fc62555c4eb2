import { type BookingRecord, changeStamp } from '../../bookings/entity/booking-item.ts';
import { soldFlight } from '../../bookings/entity/stored-flight.ts';
import type { ChangeDeps, ChangeSearch, SupplierChangeOfferView } from '../../bookings/flow.ts';
import { isoSeconds } from '../../clock.ts';
import { NotChangeableError, ValidationError } from '../../errors.ts';
import { findAirport } from '../../flights/airports.ts';
import type { FlightView } from '../../flights/flight-view.ts';
import { daysBetween, localDateAt } from '../../flights/local-time.ts';
import { OFFER_TTL_SECONDS, openPayload, sealPayload } from '../../flights/offers.ts';
import { toMajor } from '../../money.ts';
import type { ChangeAsked, RemoteOrders, SupplierChangeOffer } from '../port.ts';

/**
 * Change search with a remote supplier (docs/API.md §4.9, docs/bookings.md "Changes"): the supplier's
 * own offers of changing the order (Duffel: an order change request's offers, duffel/changes.ts), each
 * answered as a ChangeOffer whose id seals the supplier's offer id, the booking, its version and the
 * total quoted, as search's offer ids seal Duffel's (20 minutes at most, sooner where the supplier's
 * offer expires first). What the supplier does not state is null (`penalty`, `fare_difference`).
 */

/** What a remote change offer's id seals: agency, booking, version, expiry, the supplier's offer, total, journeys asked. */
export interface SealedChange {
  v: 'rc1';
  a: string;
  b: string;
  r: number;
  x: number;
  d: string;
  t: number;
  u: string;
  c: number[];
  j: ChangeAsked[];
}

/** A remote change offer id opened; undefined when this service did not issue it as one. */
export function openRemoteChange(key: Uint8Array, id: string): SealedChange | undefined {
  const sealed = openPayload(key, id)?.payload as SealedChange | undefined;
  return sealed?.v === 'rc1' ? sealed : undefined;
}

/** The journeys asked, checked: each one of the trip's (400), not departed (409), not before today (400). */
function askedJourneys(request: ChangeSearch, flight: FlightView, now: number): ChangeAsked[] {
  const problems: { path: string; message: string }[] = [];
  const asked = request.journeys.map((j, i) => {
    const booked = flight.slices[j.index];
    if (!booked)
      problems.push({ path: `journeys.${i}.index`, message: `must be below ${flight.slices.length}` });
    const first = booked?.segments[0];
    if (first && Date.parse(first.departure_at) <= now)
      throw new NotChangeableError('This journey has departed.');
    const origin = j.origin ?? first?.origin ?? '';
    const zone = findAirport(origin)?.timeZone;
    if (zone && daysBetween(localDateAt(zone, now), j.departure_date) < 0)
      problems.push({
        path: `journeys.${i}.departure_date`,
        message: 'must not be before today at the origin',
      });
    const destination = j.destination ?? booked?.segments.at(-1)?.destination ?? '';
    return { index: j.index, origin, destination, date: j.departure_date };
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return asked;
}

/** The trip as `offer` would make it: the booking's journeys, the changed ones replaced. */
function changedFlight(
  flight: FlightView,
  offer: SupplierChangeOffer,
  total: number,
  sealed: { id: string; expiresAt: number },
): FlightView {
  const slices = flight.slices.map((slice, i) => offer.journeys.find((j) => j.index === i)?.journey ?? slice);
  return {
    ...flight,
    id: sealed.id,
    total_price: toMajor(total, flight.currency),
    seats_available: null,
    expires_at: isoSeconds(sealed.expiresAt * 1000),
    outbound: slices[0] ?? flight.outbound,
    ...(flight.inbound && slices[1] && { inbound: slices[1] }),
    slices,
  };
}

/** One supplier change offer as a ChangeOffer for `record`, sealed under `key`. */
function changeOfferView(
  deps: ChangeDeps,
  record: BookingRecord,
  offer: SupplierChangeOffer,
  asked: ChangeAsked[],
): SupplierChangeOfferView {
  const now = deps.clock.now();
  const ours = Math.floor(now / 1000) + OFFER_TTL_SECONDS;
  const expiresAt = Math.min(Math.floor(Date.parse(offer.expiresAt) / 1000) || ours, ours);
  const sealed: SealedChange = {
    v: 'rc1',
    a: record.agency_id,
    b: record.booking_id,
    r: changeStamp(record).version,
    x: expiresAt,
    d: offer.id,
    t: offer.changeTotal,
    u: offer.currency,
    c: offer.journeys.map((j) => j.index),
    j: asked,
  };
  const id = sealPayload(deps.keys.offer, sealed);
  const money = (minor: number) => ({ amount: toMajor(minor, offer.currency), currency: offer.currency });
  // The new total: the booking's and the fare difference where stated, else the booking's and the change's total.
  const total = record.total + (offer.fareDifference ?? offer.changeTotal);
  return {
    id,
    flight: changedFlight(soldFlight(record.flight) as FlightView, offer, total, { id, expiresAt }),
    change_total: money(offer.changeTotal),
    penalty: offer.penalty === null ? null : money(offer.penalty),
    fare_difference: offer.fareDifference === null ? null : money(offer.fareDifference),
    ...(offer.refundTo && offer.changeTotal < 0 && { refund_to: offer.refundTo }),
    expires_at: isoSeconds(expiresAt * 1000),
  };
}

/** The ChangeOffers of `asked` journeys of `record`'s order, cheapest first. */
export async function remoteChangeOffers(
  orders: RemoteOrders,
  deps: ChangeDeps,
  record: BookingRecord,
  asked: ChangeAsked[],
): Promise<SupplierChangeOfferView[]> {
  const orderId = record.supplier?.order_id;
  if (!orderId) throw new NotChangeableError('The booking has no supplier order to change.');
  const offers = await orders.searchChanges(orderId, asked, record.travel_class);
  return offers
    .filter((offer) => offer.currency === record.currency)
    .sort((a, b) => a.changeTotal - b.changeTotal)
    .map((offer) => changeOfferView(deps, record, offer, asked));
}

/** Change search's part of the remote flow: the journeys asked checked, then the supplier's offers. */
export async function searchRemoteChanges(
  orders: RemoteOrders,
  deps: ChangeDeps,
  record: BookingRecord,
  request: ChangeSearch,
): Promise<SupplierChangeOfferView[]> {
  if (record.status !== 'CONFIRMED')
    throw new NotChangeableError(`A ${record.status} booking cannot be changed.`);
  const asked = askedJourneys(request, soldFlight(record.flight) as FlightView, deps.clock.now());
  return (await remoteChangeOffers(orders, deps, record, asked)).slice(0, request.limit);
}
