import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookingRecord } from '#shared/bookings/entity/booking-item.ts';
import { inTableCancelling } from '#shared/bookings/in-table-flow.ts';
import { conditionsRefund } from '#shared/bookings/journey-refund.ts';
import { conditionsQuote, ownRefundQuote } from '#shared/bookings/refund-quote.ts';
import { TRAVEL_CLASSES, type TravelClass } from '#shared/flights/cabins.ts';
import { networkConditionsByJourney } from '#shared/flights/fare-conditions.ts';
import { bucketConditions, NOT_ALLOWED, type PassengerCounts, seatsFor } from '#shared/flights/fares.ts';
import { booking as example } from '#shared/openapi/examples.ts';

/**
 * The network's refund journey by journey (docs/API.md §4.3), held to brute force over random trips:
 * 1–6 journeys of 1–2 segments in any bucket of any cabin, any party, any price per segment, some
 * segments with a seat or a bag bought on them (docs/API.md §4.10: they follow their journey's fare).
 */
interface Trip {
  travelClass: TravelClass;
  pax: PassengerCounts;
  /** Per journey, per segment: its bucket, what the party paid for it, and for a seat and a bag on it (cents). */
  journeys: { bucket: number; paid: number; seat?: number; bag?: number }[][];
}

const segment = fc.record({
  bucket: fc.integer({ min: 0, max: 5 }),
  paid: fc.integer({ min: 0, max: 500_000 }),
  seat: fc.constantFrom(0, 0, 1500),
  bag: fc.constantFrom(0, 0, 4500),
});
const trips: fc.Arbitrary<Trip> = fc.record({
  travelClass: fc.constantFrom(...TRAVEL_CLASSES),
  pax: fc
    .record({
      adults: fc.integer({ min: 1, max: 5 }),
      children: fc.integer({ min: 0, max: 4 }),
      infants: fc.nat(1),
    })
    .map((p) => ({ ...p, infants: Math.min(p.infants, p.adults) })),
  journeys: fc.array(fc.array(segment, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
});

/** The booking record the trip was sold as: each journey's conditions, every segment's price. */
function soldAs(trip: Trip): BookingRecord {
  const conditions = networkConditionsByJourney(
    trip.travelClass,
    trip.journeys.map((j) => j.map((s) => s.bucket)),
    trip.pax,
  );
  const slices = trip.journeys.map((j, i) => ({
    ...example.flight.outbound,
    segments: j.map(
      () => example.flight.outbound.segments[0] as (typeof example.flight.outbound.segments)[0],
    ),
    conditions: conditions.journeys[i],
  }));
  const segments = trip.journeys
    .flat()
    .map(({ bucket, paid }) => ({ flight_number: 'BA117', date: '2027-01-01', bucket, paid }));
  const money = (cents: number) => ({ amount: cents / 100, currency: 'EUR' });
  const services = trip.journeys.flatMap((j, journey) =>
    j.flatMap((s, i) =>
      s.bag
        ? [
            {
              id: `bag_${journey}_${i}`,
              journey_index: journey,
              passenger_index: 0,
              kind: 'checked' as const,
              weight_kg: 23,
              quantity: 1,
              price: money(s.bag),
            },
          ]
        : [],
    ),
  );
  const seats = trip.journeys
    .flat()
    .flatMap((s, i) => (s.seat ? [{ segment_index: i, designator: `${i + 1}A`, price: money(s.seat) }] : []));
  const extras = trip.journeys.flat().reduce((sum, s) => sum + (s.seat ?? 0) + (s.bag ?? 0), 0);
  return {
    ...(example as unknown as BookingRecord),
    services,
    passengers: [{ ...example.passengers[0], seats }],
    status: 'CONFIRMED',
    departs_at: Date.UTC(2027, 0, 1),
    total: segments.reduce((sum, s) => sum + s.paid, extras),
    currency: 'EUR',
    flight: { ...example.flight, outbound: slices[0], slices, conditions: conditions.trip },
    segments,
  } as BookingRecord;
}

/**
 * Brute force, from the table itself: a journey refunds its price (its bags and seats included) less its
 * worst segment's penalty per seat.
 */
function expected(trip: Trip): number {
  let refund = 0;
  for (const journey of trip.journeys) {
    const rows = journey.map((s) => bucketConditions(trip.travelClass, s.bucket).refund);
    if (rows.some((cents) => cents === NOT_ALLOWED)) continue;
    const penalty = Math.max(...rows.map((cents) => (cents ?? 0) * seatsFor(trip.pax)));
    const price = journey.reduce((sum, s) => sum + s.paid + (s.seat ?? 0) + (s.bag ?? 0), 0);
    refund += Math.max(0, price - penalty);
  }
  return refund;
}

describe('fn: conditionsRefund, journey by journey', () => {
  it('gives back each refundable journey its price less its penalty, the others nothing (brute force)', () => {
    fc.assert(
      fc.property(trips, (trip) => {
        const record = soldAs(trip);
        const refund = conditionsRefund(record);
        expect(refund).toBe(expected(trip));
        expect(refund).toBeGreaterThanOrEqual(0);
        expect(refund).toBeLessThanOrEqual(record.total);
      }),
      { numRuns: 500 },
    );
  });

  it('never gives back more than the booking was paid, whatever its segments’ prices say', () => {
    // FIRST is free to refund: the whole of each journey's price, here more than the booking's total.
    const record = soldAs({
      travelClass: 'FIRST',
      pax: { adults: 1, children: 0, infants: 0 },
      journeys: [[{ bucket: 0, paid: 600_00 }], [{ bucket: 0, paid: 500_00 }]],
    });
    expect(conditionsRefund({ ...record, total: 1_000_00 })).toBe(1_000_00);
    expect(conditionsRefund(record)).toBe(1_100_00);
  });

  it('quotes exactly what a cancel gives back, in major units', () => {
    fc.assert(
      fc.property(trips, (trip) => {
        const record = soldAs(trip);
        const quoted = conditionsQuote(record);
        const cancelling = ownRefundQuote(record, inTableCancelling);
        expect(cancelling).toEqual(quoted);
        expect(quoted.refund).toEqual({ amount: conditionsRefund(record) / 100, currency: 'EUR' });
      }),
      { numRuns: 300 },
    );
  });

  it('refunds a booking that kept no journey prices by the trip’s conditions on its whole price', () => {
    fc.assert(
      fc.property(trips, (trip) => {
        const record = soldAs(trip);
        const older = { ...record, segments: record.segments.map(({ paid: _, ...s }) => s) };
        const trip_ = record.flight.conditions?.refund_before_departure;
        const whole = trip_?.allowed
          ? Math.max(0, record.total - Math.round((trip_.penalty?.amount ?? 0) * 100))
          : 0;
        expect(conditionsRefund(older)).toBe(whole);
      }),
      { numRuns: 200 },
    );
  });
});
