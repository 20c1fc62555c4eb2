import { describe, expect, it } from 'vitest';
import { changedRecord } from '#shared/bookings/change-record.ts';
import type { BookingRecord } from '#shared/bookings/entity/booking-item.ts';
import { findItineraries } from '#shared/flights/itineraries.ts';
import { segmentPrice } from '#shared/flights/pricing.ts';
import type { ScheduledFlight } from '#shared/flights/schedule.ts';
import { booking as example } from '#shared/openapi/examples.ts';

const one = { adults: 1, children: 0, infants: 0 };
const money = (cents: number) => ({ amount: cents / 100, currency: 'EUR' });
const options = { maxConnections: 1 as const, earliestDeparture: 0 };
const itinerary = (from: string, to: string, date: string, length: number) => {
  const found = findItineraries(from, to, date, options).find((it) => it.length === length);
  if (!found) throw new Error(`no ${length}-segment itinerary ${from}-${to} on ${date}`);
  return found;
};
const stored = (flight: ScheduledFlight, paid: number, seats?: string[]) => ({
  flight_number: flight.flightNumber,
  date: flight.date,
  bucket: 2,
  paid,
  ...(seats && { seats }),
});

/**
 * A multi-city booking LHR-JFK, JFK-LAX, LAX-LHR (one flight each) with a seat on the first and the
 * last flight and a bag on the first and the last journey; its first journey changed onto a connection.
 */
function scenario() {
  const old = [
    itinerary('LHR', 'JFK', '2026-12-10', 1),
    itinerary('JFK', 'LAX', '2026-12-13', 1),
    itinerary('LAX', 'LHR', '2026-12-16', 1),
  ];
  const slice = { ...example.flight.outbound, segments: [example.flight.outbound.segments[0]] };
  const bag = (journey: number) => ({
    id: `bag_${journey}_0`,
    journey_index: journey,
    passenger_index: 0,
    kind: 'checked' as const,
    weight_kg: 23,
    quantity: 1,
    price: money(6000),
  });
  const record = {
    ...(example as unknown as BookingRecord),
    currency: 'EUR',
    flight: { ...example.flight, passengers: one, slices: [slice, slice, slice], inbound: undefined },
    segments: [
      stored(old[0]?.[0] as ScheduledFlight, 40_000, ['1A']),
      stored(old[1]?.[0] as ScheduledFlight, 20_000),
      stored(old[2]?.[0] as ScheduledFlight, 50_000, ['3C']),
    ],
    passengers: [
      {
        ...example.passengers[0],
        seats: [
          { segment_index: 0, designator: '1A', price: money(1500) },
          { segment_index: 2, designator: '3C', price: money(2000) },
        ],
      },
    ],
    services: [bag(0), bag(2)],
  } as BookingRecord;
  const moved = itinerary('LHR', 'LAX', '2026-12-11', 2);
  const flights = [...moved, ...(old[1] ?? []), ...(old[2] ?? [])];
  const quote = {
    changed: [0],
    segments: flights.map((f) => ({ flightNumber: f.flightNumber, date: f.date, bucket: 0 })),
    slicesFrom: [2, 3],
    total: 123_400,
  };
  return { record, moved, flights, quote };
}

describe('fn: changedRecord', () => {
  it('stores the new journey’s segments at today’s price and keeps the others’ as sold', () => {
    const { record, moved, flights, quote } = scenario();

    const changed = changedRecord(record, quote, flights, { travelClass: 'ECONOMY' });

    expect(changed.segments).toEqual([
      ...moved.map((f) => ({ ...stored(f, segmentPrice(f, 'ECONOMY', 0, one)), bucket: 0 })),
      record.segments[1],
      record.segments[2],
    ]);
  });

  it('gives back the changed journey’s seats and bags, moves the kept seats to their segments’ new place', () => {
    const { record, flights, quote } = scenario();

    const changed = changedRecord(record, quote, flights, { travelClass: 'ECONOMY' });

    expect(changed.services).toEqual([record.services?.[1]]);
    expect(changed.passengers[0]?.seats).toEqual([
      { segment_index: 3, designator: '3C', price: money(2000) },
    ]);
    // The new trip's price and the bag and the seat kept.
    expect(changed.total).toBe(123_400 + 6000 + 2000);
  });
});
