import type { ChangeQuote } from '../flights/change-quote.ts';
import { splitJourney } from '../flights/flight-view.ts';
import { segmentPrice } from '../flights/pricing.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { BookingRecord } from './entity/booking-item.ts';
import { soldFlight } from './entity/stored-flight.ts';
import { journeyExtras } from './extras.ts';

/**
 * A booking's record as a change leaves it (docs/API.md §4.9, docs/decisions.md "Changes and bags and
 * seats"): the journeys kept keep their stored segments (what they were paid, the seats chosen on them)
 * and their bags and seats; the new journeys' segments are stored with what they cost today
 * (`segments[].paid`, taxes included) and no chosen seats; the bags and seats of the journeys changed
 * are given back (their value counts in the fare difference) and not carried over: the agent chooses
 * again. A kept seat's `segment_index` follows its segment to its place in the new trip. The total is
 * the new trip's price plus the bags and seats kept.
 */
export function changedRecord(
  record: Pick<BookingRecord, 'segments' | 'passengers' | 'services' | 'currency' | 'flight'>,
  quote: Pick<ChangeQuote, 'changed' | 'segments' | 'inboundFrom' | 'slicesFrom' | 'total'>,
  flights: readonly ScheduledFlight[],
  sale: { travelClass: BookingRecord['travel_class'] },
) {
  const oldLengths = soldFlight(record.flight).slices.map((slice) => slice.segments.length);
  const newLengths = splitJourney(flights, quote).slices.map((slice) => slice.length);
  const passengers = record.flight.passengers;
  const segments: BookingRecord['segments'] = [];
  const moved = new Map<number, number>();
  let oldAt = 0;
  for (const [j, length] of newLengths.entries()) {
    const oldLength = oldLengths[j] ?? 0;
    if (quote.changed.includes(j)) {
      const start = segments.length;
      quote.segments.slice(start, start + length).forEach((s, i) => {
        const flight = flights[start + i] as ScheduledFlight;
        const paid = segmentPrice(flight, sale.travelClass, s.bucket, passengers);
        segments.push({ flight_number: s.flightNumber, date: s.date, bucket: s.bucket, paid });
      });
    } else {
      record.segments.slice(oldAt, oldAt + oldLength).forEach((s, i) => {
        moved.set(oldAt + i, segments.length);
        segments.push(s);
      });
    }
    oldAt += oldLength;
  }
  const kept = journeyExtras(record, oldLengths, record.currency).filter(
    (_, j) => !quote.changed.includes(j),
  );
  const bags = (record.services ?? []).filter((bag) => !quote.changed.includes(bag.journey_index));
  return {
    segments,
    passengers: keptSeats(record.passengers, moved),
    // Absent when none is left, as on a booking that bought none.
    ...(bags.length > 0 && { services: bags }),
    total: quote.total + kept.reduce((n, cents) => n + cents, 0),
  };
}

/** Each passenger's seats on the segments kept, at their new place (`moved`: old index → new). */
function keptSeats(
  passengers: BookingRecord['passengers'],
  moved: ReadonlyMap<number, number>,
): BookingRecord['passengers'] {
  return passengers.map((passenger) => {
    if (!passenger.seats) return passenger;
    const { seats, ...rest } = passenger;
    const kept = seats.flatMap((seat) => {
      const at = moved.get(seat.segment_index);
      return at === undefined ? [] : [{ ...seat, segment_index: at }];
    });
    return kept.length > 0 ? { ...rest, seats: kept } : rest;
  });
}
