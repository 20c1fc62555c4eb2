import { type FareConditionsView, refundByJourney, refundUnder } from '../flights/fare-conditions.ts';
import type { BookingRecord } from './entity/booking-item.ts';
import { journeyExtras } from './extras.ts';

/**
 * What a booking in our own table refunds by the conditions it was sold with (docs/API.md §4.3),
 * journey by journey: each journey's price is what its segments were paid (`segments[].paid`, in
 * journey order, as many as the journey's flights) and the bags and seats bought on it (docs/API.md
 * §4.10: they follow their journey's fare), less its own penalty where its conditions allow a refund,
 * nothing where they do not. A booking stored before journeys kept their price or their conditions is
 * refunded by the trip's conditions on its whole price, the rule it was sold under.
 */
export function conditionsRefund(
  record: Pick<BookingRecord, 'flight' | 'segments' | 'total' | 'currency' | 'services' | 'passengers'>,
): number {
  const journeys = soldJourneys(record);
  // Never more than was paid, whatever the segments' prices say (an offer sealed under older fares).
  return journeys
    ? Math.min(record.total, refundByJourney(journeys, record.currency))
    : refundUnder(record.flight.conditions, record.total, record.currency);
}

/** Each journey's conditions and price as sold, its extras included; undefined when the booking did not keep them. */
function soldJourneys(
  record: Pick<BookingRecord, 'flight' | 'segments' | 'currency' | 'services' | 'passengers'>,
) {
  const { flight, segments } = record;
  const slices = flight.slices ?? [flight.outbound, ...(flight.inbound ? [flight.inbound] : [])];
  const extras = journeyExtras(
    record,
    slices.map((slice) => slice.segments.length),
    record.currency,
  );
  const journeys: { conditions: FareConditionsView; paid: number }[] = [];
  let at = 0;
  for (const [j, slice] of slices.entries()) {
    const sold = segments.slice(at, at + slice.segments.length);
    at += slice.segments.length;
    let paid = extras[j] ?? 0;
    for (const segment of sold) {
      if (segment.paid === undefined) return undefined;
      paid += segment.paid;
    }
    if (!slice.conditions || sold.length !== slice.segments.length) return undefined;
    journeys.push({ conditions: slice.conditions, paid });
  }
  return at === segments.length ? journeys : undefined;
}
