import { describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { duffelMode } from '#test/helpers/duffel.ts';
import { signIn } from '#test/helpers/session.ts';

/**
 * What holds use of the port (docs/API.md §4.4): an order Duffel keeps unpaid until its deadline, then
 * paid from the balance for exactly its amount — once; a second payment is not made, and its refusal
 * is "read the order" (unknown), never a payment.
 */
const duffel = await duffelMode();

describe('duffel mode: the port’s hold and pay', () => {
  it('orders on hold without paying, then pays exactly the held amount, and never pays twice', async () => {
    freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
    const session = await signIn({ agencyId: 'hold-agency' });
    const [flight] = (
      await duffel.search(session, { origin: 'CDG', destination: 'FCO', departure_date: '2027-02-01' })
    ).body.data as Json[];
    const offer = duffel.ctx.supplier.openOffer(flight.id);
    if (offer?.ordering.kind !== 'remote') throw new Error('a Duffel offer orders remotely');
    const { orders } = duffel.ctx.supplier;
    if (orders.kind !== 'remote') throw new Error('Duffel orders are remote');
    const body = bookingBody(flight);

    const held = await offer.ordering.orderOnHold({
      bookingId: 'bkg_HOLD',
      passengers: body.passengers.map((p) => ({ ...p, pax_type: 'ADULT' as const })),
      contact: body.contact,
    });
    if (held.kind !== 'ordered') throw new Error(`not held: ${held.kind}`);
    const paid = await orders.pay(held.order.orderId, { amount: offer.total, currency: offer.currency });
    const again = await orders.pay(held.order.orderId, { amount: offer.total, currency: offer.currency });
    const order = await orders.readOrder(held.order.orderId);

    expect(held.order).toMatchObject({ awaitingPayment: true, total: offer.total, currency: 'GBP' });
    expect(held.order.paymentRequiredBy).toEqual(expect.any(String));
    const sent = duffel.standIn.requests.find((r) => r.path === '/air/orders')?.body as Json;
    expect(sent.data.type).toBe('hold');
    expect(sent.data.payments).toBeUndefined();
    expect(paid).toEqual({ kind: 'paid' });
    expect(again).toEqual({ kind: 'unknown' });
    expect(order).toMatchObject({ orderId: held.order.orderId, awaitingPayment: false, total: offer.total });
    expect(duffel.standIn.requests.filter((r) => r.path === '/air/payments')).toHaveLength(2);
  });
});
