import { describe, expect, it } from 'vitest';
import type { BookingView } from '#shared/bookings/entity/booking-item.ts';
import { eventId } from '#shared/events/booking-event.ts';
import { renderItineraryFor, type TravellerBooking } from '#shared/events/itinerary-sections.ts';
import { renderItinerary, renderNotice } from '#shared/events/notice.ts';
import { zoneName } from '#shared/events/zone-name.ts';
import { booking as example } from '#shared/openapi/examples.ts';

const booking = example as unknown as TravellerBooking;
const journey = booking.flight.outbound;
const segment = journey.segments[0] as (typeof journey.segments)[number];
const render = (b: TravellerBooking) =>
  renderItineraryFor(b, { headline: 'Your itinerary', agencyName: 'Acme' });
const free = { allowed: true, penalty: { amount: 0, currency: 'EUR' } };
const fee = (amount: number) => ({ allowed: true, penalty: { amount, currency: 'EUR' } });
const noRefund = { allowed: false, penalty: null };

/** A return trip whose journeys differ: the outbound refundable at a fee, the return not. */
function roundTrip(): TravellerBooking {
  const back = {
    ...journey,
    segments: [{ ...segment, flight_number: 'BA112', origin: 'JFK', destination: 'LHR' }],
    conditions: { refund_before_departure: noRefund, change_before_departure: free },
    baggage: [],
    fare_brand: null,
  };
  const out = {
    ...journey,
    conditions: { refund_before_departure: fee(50), change_before_departure: fee(25) },
    baggage: [
      { pax_type: 'ADULT' as const, carry_on: 1, checked: 1 },
      { pax_type: 'CHILD' as const, carry_on: 1, checked: 0 },
    ],
    fare_brand: 'Economy Classic',
  };
  return { ...booking, flight: { ...booking.flight, outbound: out, inbound: back, slices: [out, back] } };
}

describe('fn: zoneName', () => {
  it('names a zone as people say it, in winter and summer, and by offset where it has no name', () => {
    expect(zoneName('Europe/London', Date.parse('2026-12-01T12:00:00Z'))).toBe('GMT');
    expect(zoneName('Europe/London', Date.parse('2026-07-01T12:00:00Z'))).toBe('BST');
    expect(zoneName('America/New_York', Date.parse('2026-12-01T12:00:00Z'))).toBe('EST');
    expect(zoneName('Asia/Tokyo', Date.parse('2026-12-01T12:00:00Z'))).toBe('JST');
    expect(zoneName('Australia/Sydney', Date.parse('2026-12-01T12:00:00Z'))).toBe('AEDT');
    expect(zoneName('America/Sao_Paulo', Date.parse('2026-12-01T12:00:00Z'))).toBe('GMT-3');
  });
});

describe('fn: renderItineraryFor', () => {
  it('gives every segment at the airport’s clock with the zone’s name, and in UTC', () => {
    const { text } = render(booking);
    // December: London on GMT, New York five hours behind on EST.
    expect(text).toContain('departs 2026-12-01 07:55 GMT local time (2026-12-01 07:55 UTC)');
    expect(text).toContain('arrives 2026-12-01 10:15 EST local time (2026-12-01 15:15 UTC)');
  });

  it('gives each journey its own fare conditions with fees, fare brand and bags', () => {
    const { text } = render(roundTrip());
    expect(text).toContain(
      [
        'Outbound:',
        `  ${segment.flight_number} (British Airways) LHR to JFK`,
        '    departs 2026-12-01 07:55 GMT local time (2026-12-01 07:55 UTC)',
        '    arrives 2026-12-01 10:15 EST local time (2026-12-01 15:15 UTC)',
        '  Fare: Economy Classic',
        '  Bags included per passenger: adult: 1 carry-on, 1 checked; child: 1 carry-on, 0 checked',
        '  Refund before departure: allowed, fee 50.00 EUR',
        '  Change before departure: allowed, fee 25.00 EUR',
      ].join('\n'),
    );
    expect(text).toContain(
      [
        '  Bags included per passenger: not stated by the airline',
        '  Refund before departure: not allowed',
        '  Change before departure: allowed, free of charge',
      ].join('\n'),
    );
    // The return's brand is null: no brand line is made up for it.
    expect(text.match(/Fare: /g)).toHaveLength(1);
    expect(text).not.toContain('whole trip');
  });

  it('falls back to the trip’s conditions, once, where the journeys do not state their own', () => {
    const trip = roundTrip();
    const unstated = { refund_before_departure: null, change_before_departure: null };
    const flight = {
      ...trip.flight,
      conditions: { refund_before_departure: fee(75), change_before_departure: null },
      inbound: { ...trip.flight.outbound, conditions: unstated },
    };
    const { text } = render({ ...trip, flight: { ...flight, slices: [flight.outbound, flight.inbound] } });
    expect(text).toContain(
      [
        'Fare conditions (whole trip):',
        '  Refund before departure: allowed, fee 75.00 EUR',
        '  Change before departure: not stated by the airline',
      ].join('\n'),
    );
    expect(text.match(/Refund before departure/g)).toHaveLength(1);
  });

  it('gives the price per passenger type, a dash where the supplier gives none, and the total', () => {
    const priced = {
      ...booking,
      flight: {
        ...booking.flight,
        price_breakdown: [
          { pax_type: 'ADULT' as const, count: 2, base: 300, taxes: 50.5, total: 350.5 },
          { pax_type: 'INFANT' as const, count: 1, base: null, taxes: null, total: 12 },
        ],
      },
    };
    const { text } = render(priced);
    expect(text).toContain(
      [
        'Price:',
        '  2 adults: base 300.00, taxes 50.50, total 350.50 EUR',
        '  1 infant: base –, taxes –, total 12.00 EUR',
        `  Total price: ${booking.total_price.toFixed(2)} EUR`,
      ].join('\n'),
    );
  });

  it('gives a cancelled booking’s refund as stated: the amount, where it goes, the airline credits', () => {
    const cancelled = {
      ...booking,
      status: 'CANCELLED' as const,
      refund: { amount: 120, currency: 'EUR' },
      refund_to: 'airline_credits' as const,
      airline_credits: [
        { code: 'BA1X2Y', amount: 100, currency: 'EUR', expires_at: '2027-06-01T00:00:00Z' },
        { code: null, amount: 20, currency: 'EUR', expires_at: null },
      ],
    };
    const { text } = render(cancelled);
    expect(text).toContain('Status: cancelled');
    expect(text).toContain(
      [
        'Cancellation:',
        '  Refund: 120.00 EUR',
        '  Refunded as airline credits',
        '  Airline credit BA1X2Y: 100.00 EUR, expires 2027-06-01 00:00 UTC',
        '  Airline credit (code to follow): 20.00 EUR, no expiry stated',
      ].join('\n'),
    );
  });

  it('says a refund the supplier does not know yet as not yet known, never 0', () => {
    const unknown = {
      ...booking,
      status: 'CANCELLED' as const,
      refund: null,
      refund_to: null,
      airline_credits: [],
    };
    const { text } = render(unknown);
    expect(text).toContain('Cancellation:\n  Refund: not yet known\n\n');
    expect(text).not.toContain('0.00 EUR\n  Refunded');
    expect(
      render({ ...unknown, refund: { amount: 80, currency: 'EUR' }, refund_to: 'balance' }).text,
    ).toContain('  Refund: 80.00 EUR\n  Refunded to your travel agency’s account');
    expect(render(booking).text).not.toContain('Cancellation');
  });

  it('escapes every value in the HTML body', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const trip = roundTrip();
    const out = { ...trip.flight.outbound, fare_brand: hostile };
    const evil = {
      ...trip,
      status: 'CANCELLED' as const,
      refund: null,
      refund_to: 'voucher' as const,
      airline_credits: [{ code: hostile, amount: 1, currency: 'EUR', expires_at: null }],
      passengers: trip.passengers.map((p) => ({ ...p, first_name: hostile })),
      flight: { ...trip.flight, outbound: out, slices: [out, trip.flight.inbound ?? out] },
    };
    const { html, text } = renderItineraryFor(evil, { headline: 'Your itinerary', agencyName: hostile });
    expect(html).not.toContain('<img');
    expect(html.match(/&#60;img src=x onerror=alert\(1\)&#62;/g)?.length).toBeGreaterThanOrEqual(4);
    expect(text).toContain(`Fare: ${hostile}`);
    expect(html).toContain('<h2>Cancellation</h2>');
  });
});

/** The traveller's notice of `type` for `view`, from Acme. */
const noticeOf = (type: 'booking.confirmed' | 'booking.cancelled', view: BookingView) =>
  renderNotice(
    {
      id: eventId(view.booking_id, { version: view.version, status: view.status }),
      type,
      occurredAt: view.updated_at,
      agencyId: 'acme',
      booking: view,
    },
    'Acme',
  );

describe('fn: renderNotice and renderItinerary', () => {
  it('tell the same itinerary from one builder: only the headline and a hold’s deadline differ', () => {
    const notice = noticeOf('booking.confirmed', { ...(booking as BookingView), notes: [] });
    const itinerary = renderItinerary(booking, 'Acme');
    expect(notice?.text.replace('Your booking is confirmed', 'Your itinerary')).toBe(itinerary.text);
    expect(itinerary.text).toContain('Fare: Economy Light');
    expect(notice?.text).toContain('Bags included per passenger: adult: 1 carry-on, 0 checked');
  });

  it('tell a cancelled booking’s traveller the refund as stated, unknown included', () => {
    const notice = noticeOf('booking.cancelled', {
      ...(booking as BookingView),
      status: 'CANCELLED',
      refund: null,
      refund_to: 'card',
      airline_credits: [],
    });
    expect(notice?.text).toContain(
      'Cancellation:\n  Refund: not yet known\n  Refunded to the card that paid',
    );
  });
});
