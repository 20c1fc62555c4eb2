import type { ErrorDetail } from '../errors.ts';
import type { FlightView } from '../flights/flight-view.ts';
import type { CreateBookingInput } from './request.ts';

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

  const sent = body.flight_details.outbound.segments;
  const expected = quoted.outbound.segments;
  if (sent.length !== expected.length) {
    differ('flight_details.outbound.segments', expected.length, sent.length);
    return details;
  }
  expected.forEach((segment, i) => {
    const mine = sent[i];
    if (!mine) return;
    const at = `flight_details.outbound.segments.${i}`;
    for (const field of ['carrier_name', 'flight_number', 'origin', 'destination'] as const) {
      if (mine[field] !== segment[field]) differ(`${at}.${field}`, segment[field], mine[field]);
    }
    if (Date.parse(mine.departure_at) !== Date.parse(segment.departure_at)) {
      differ(`${at}.departure_at`, segment.departure_at, mine.departure_at);
    }
  });
  return details;
}
