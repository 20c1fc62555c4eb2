import { describe, expect, it } from 'vitest';
import type { BookingView } from '#shared/bookings/entity/booking-item.ts';
import { type BookingEvent, eventId } from '#shared/events/booking-event.ts';
import { renderNotice } from '#shared/events/notice.ts';
import { booking as example } from '#shared/openapi/examples.ts';

const booking = example as unknown as BookingView;
const event = (type: BookingEvent['type'], extra: Partial<BookingEvent> = {}): BookingEvent => ({
  id: eventId(booking.booking_id, { version: 1, status: 'CONFIRMED' }),
  type,
  occurredAt: booking.updated_at,
  agencyId: 'acme-travel',
  booking,
  ...extra,
});

describe('traveller notices', () => {
  it('gives the PNR, passengers, every segment in local and UTC time, the price and the agency', () => {
    const notice = renderNotice(event('booking.confirmed'), 'Acme Travel');
    const segment = booking.flight.outbound.segments[0];
    expect(notice).toMatchObject({
      to: booking.contact.email,
      pnr: booking.pnr,
      bookingId: booking.booking_id,
    });
    expect(notice?.subject).toBe(`Your booking is confirmed: ${booking.pnr} (Acme Travel)`);
    expect(notice?.text).toContain(`Booking reference (PNR): ${booking.pnr}`);
    expect(notice?.text).toContain('Booked through: Acme Travel');
    expect(notice?.text).toContain(`${segment?.flight_number} (${segment?.carrier_name}) LHR to JFK`);
    // December: London is on UTC, New York five hours behind.
    const departs = `${segment?.departure_at.slice(0, 10)} ${segment?.departure_at.slice(11, 16)}`;
    expect(notice?.text).toContain(`departs ${departs} GMT local time (${departs} UTC)`);
    expect(notice?.text).toMatch(
      /arrives 2026-12-01 \d{2}:\d{2} EST local time \(2026-12-01 \d{2}:\d{2} UTC\)/,
    );
    const arrival = /arrives 2026-12-01 (\d{2}):\d{2} EST local time \(2026-12-01 (\d{2}):\d{2} UTC\)/.exec(
      notice?.text ?? '',
    );
    expect(Number(arrival?.[2]) - Number(arrival?.[1])).toBe(5);
    for (const p of booking.passengers) expect(notice?.text).toContain(`${p.first_name} ${p.last_name}`);
    expect(notice?.text).toContain(`Total price: ${booking.total_price.toFixed(2)} ${booking.currency}`);
    expect(notice?.html).toContain('<h1>Your booking is confirmed</h1>');
  });

  it('lists each passenger’s seats and the bags bought', () => {
    const [first] = booking.passengers;
    if (!first) throw new Error('example has no passenger');
    const withExtras = {
      ...booking,
      passengers: [
        {
          ...first,
          seats: [{ segment_index: 0, designator: '16A', price: { amount: 20, currency: 'EUR' } }],
        },
      ],
      services: [
        {
          id: 'bag_0_0',
          journey_index: 0,
          passenger_index: 0,
          kind: 'checked' as const,
          weight_kg: 23,
          quantity: 2,
          price: { amount: 60, currency: 'EUR' },
        },
      ],
    } as BookingView;

    const notice = renderNotice({ ...event('booking.confirmed'), booking: withExtras }, 'Acme');

    expect(notice?.text).toContain(`${first.first_name} ${first.last_name} (adult), seat 16A (flight 1)`);
    expect(notice?.text).toContain(
      `Checked bags:\n  2 x 23 kg, ${first.first_name} ${first.last_name}, journey 1`,
    );
    expect(renderNotice(event('booking.confirmed'), 'Acme')?.text).not.toContain('Checked bags');
  });

  it('lists every journey of a multi-city booking, each segment of each', () => {
    const journey = (n: number, origin: string, destination: string) => ({
      ...booking.flight.outbound,
      segments: [{ ...booking.flight.outbound.segments[0], flight_number: `BA${n}`, origin, destination }],
    });
    const slices = [journey(1, 'LHR', 'JFK'), journey(2, 'JFK', 'LAX'), journey(3, 'LAX', 'LHR')];
    const multiCity = {
      ...booking,
      flight: { ...booking.flight, outbound: slices[0], slices },
    } as BookingView;

    const notice = renderNotice({ ...event('booking.confirmed'), booking: multiCity }, 'Acme');

    expect(notice?.text).toMatch(
      /Journey 1:\n {2}BA1 .* LHR to JFK[\s\S]*Journey 2:\n {2}BA2 .* JFK to LAX[\s\S]*Journey 3:\n {2}BA3 .* LAX to LHR/,
    );
    expect(notice?.text).not.toContain('Outbound');
  });

  it('gives the deadline of a hold, and a line per event type', () => {
    const held = renderNotice(event('booking.held', { paymentRequiredBy: '2026-11-25T09:32:05Z' }), 'Acme');
    expect(held?.text).toContain('Pay by: 2026-11-25 09:32 UTC');
    expect(renderNotice(event('booking.cancelled'), 'Acme')?.subject).toMatch(/^Your booking is cancelled/);
    expect(renderNotice(event('booking.expired'), 'Acme')?.subject).toMatch(/^Your held booking has expired/);
    expect(renderNotice(event('booking.confirmed'), 'Acme')?.text).not.toContain('Pay by');
    const changed = renderNotice(event('booking.changed'), 'Acme');
    expect(changed?.subject).toMatch(/^Your flights have changed/);
    expect(changed?.text).toContain(booking.flight.outbound.segments[0]?.flight_number ?? '?');
  });

  it('sends nothing for booking.failed: the traveller never had a booking', () => {
    expect(renderNotice(event('booking.failed'), 'Acme')).toBeUndefined();
  });

  it('escapes what came from users in the HTML body', () => {
    const hostile = {
      ...booking,
      passengers: booking.passengers.map((p) => ({ ...p, last_name: "O'Brien" })),
    };
    const notice = renderNotice(
      event('booking.confirmed', { booking: hostile }),
      '<script>alert(1)</script> & Co',
    );
    expect(notice?.html).not.toContain('<script>');
    expect(notice?.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; Co');
    expect(notice?.html).toContain('O&#39;Brien');
    expect(notice?.text).toContain("O'Brien");
  });
});

describe('event ids', () => {
  it('are stable for one change and differ between changes', () => {
    expect(eventId('bkg_1', { version: 2, status: 'CANCELLED' })).toBe(
      eventId('bkg_1', { version: 2, status: 'X' }),
    );
    expect(eventId('bkg_1', { version: 1, status: 'CONFIRMED' })).not.toBe(
      eventId('bkg_1', { version: 2, status: 'CONFIRMED' }),
    );
    expect(eventId('bkg_1', { status: 'CONFIRMED' })).not.toBe(eventId('bkg_1', { status: 'CANCELLED' }));
    expect(eventId('bkg_1', { status: 'CONFIRMED' })).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);
  });
});
