import type { ErrorDetail } from '../errors.ts';
import type { DirectionView, FlightView } from '../flights/flight-view.ts';
import type { CreateBookingInput } from './request.ts';

type SentDirection = CreateBookingInput['flight_details']['outbound'];

/** Compares the client's copy of the flight with the quote, one detail per differing field. */
export function flightMismatches(body: CreateBookingInput, quoted: FlightView): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const cents = (value: number) => Math.round(value * 100);
  const differ = (path: string, expected: unknown, received: unknown) =>
    details.push({ path, expected, received });
  const quotedCents = cents(quoted.total_price);

  if (body.flight_details.id !== body.flight_id)
    differ('flight_details.id', body.flight_id, body.flight_details.id);
  if (cents(body.flight_details.total_price) !== quotedCents) {
    differ('flight_details.total_price', quoted.total_price, body.flight_details.total_price);
  }
  if (body.flight_details.currency !== quoted.currency)
    differ('flight_details.currency', quoted.currency, body.flight_details.currency);
  if (cents(body.total_price) !== quotedCents) differ('total_price', quoted.total_price, body.total_price);
  if (body.currency !== quoted.currency) differ('currency', quoted.currency, body.currency);

  compareDirection('flight_details.outbound', body.flight_details.outbound, quoted.outbound, differ);
  compareDirection('flight_details.inbound', body.flight_details.inbound, quoted.inbound, differ);
  // A multi-city offer's journeys are checked in `slices`; any offer's, when the client sends them.
  const sent = body.flight_details.slices;
  const multiCity = !quoted.inbound && quoted.slices.length > 1;
  if (!sent && !multiCity) return details;
  if (sent?.length !== quoted.slices.length) {
    differ('flight_details.slices', quoted.slices.length, sent ? sent.length : 'absent');
    return details;
  }
  quoted.slices.forEach((slice, i) => {
    compareDirection(`flight_details.slices.${i}`, sent[i], slice, differ);
  });
  return details;
}

/** One direction's segments against the quote's; a direction present on one side only is one detail. */
function compareDirection(
  path: string,
  sent: SentDirection | undefined,
  quoted: DirectionView | undefined,
  differ: (path: string, expected: unknown, received: unknown) => void,
): void {
  if (!sent || !quoted) {
    if (sent || quoted) differ(path, quoted ? 'present' : 'absent', sent ? 'present' : 'absent');
    return;
  }
  if (sent.segments.length !== quoted.segments.length) {
    differ(`${path}.segments`, quoted.segments.length, sent.segments.length);
    return;
  }
  quoted.segments.forEach((segment, i) => {
    const mine = sent.segments[i];
    if (!mine) return;
    const at = `${path}.segments.${i}`;
    for (const field of ['carrier_name', 'flight_number', 'origin', 'destination'] as const) {
      if (mine[field] !== segment[field]) differ(`${at}.${field}`, segment[field], mine[field]);
    }
    if (Date.parse(mine.departure_at) !== Date.parse(segment.departure_at)) {
      differ(`${at}.departure_at`, segment.departure_at, mine.departure_at);
    }
  });
}
