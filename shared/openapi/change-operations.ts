import * as z from 'zod/mini';
import { changeBookingRequest } from '../bookings/change.ts';
import { changeSearchRequest } from '../bookings/change-search.ts';
import type { ChangeOfferView } from '../flights/change-quote.ts';
import { REFUND_DESTINATIONS } from '../supply/port.ts';
import { booking, flight } from './examples.ts';
import type { Operation } from './operation.ts';
import { Booking, Flight, success } from './responses.ts';

/** Money as a change states it: negative where money goes back. */
const Amount = z.object({
  amount: z
    .number()
    .check(z.meta({ description: 'Major currency units, at most 2 decimals', multipleOf: 0.01 })),
  currency: z.string(),
});

/** A ChangeOffer (docs/API.md §4.9). */
const ChangeOffer = z.object({
  id: z
    .string()
    .check(z.describe('The change offer’s id, for booking/change; bound to the booking as it is now')),
  flight: Flight.check(z.describe('The whole trip as it would be after the change')),
  change_total: Amount.check(
    z.describe('penalty + fare_difference: what the change costs; negative is money back'),
  ),
  penalty: z
    .nullable(Amount)
    .check(
      z.describe(
        'The change penalty of the changed journeys’ fares, as sold; null where an external supplier states none',
      ),
    ),
  fare_difference: z
    .nullable(Amount)
    .check(
      z.describe(
        'The new journeys at today’s fares less the changed ones as sold; below 0 only where every changed journey’s fare allows a refund. From an external supplier: its new total less the booking’s, null where it states no new total',
      ),
    ),
  refund_to: z.optional(
    z
      .enum(REFUND_DESTINATIONS)
      .check(z.describe('Where money back goes, when change_total is negative (as the supplier states it)')),
  ),
  expires_at: z.iso.datetime(),
});

/** Compile-time: what change-search answers fits the schema. */
const answered = (view: ChangeOfferView): z.output<typeof ChangeOffer> => view;

const changed = {
  ...flight,
  id: 'off_c1Qm8Zr2Lx5Vb7Nk3Wd9Pt4Hs6Jy0Fa1Ge',
  total_price: flight.total_price + 20,
};
const changeOffer: ChangeOfferView = {
  id: changed.id,
  flight: changed,
  change_total: { amount: 50, currency: flight.currency },
  penalty: { amount: 30, currency: flight.currency },
  fare_difference: { amount: 20, currency: flight.currency },
  expires_at: '2026-11-24T10:22:05Z',
};

/** Changing a booked journey (docs/API.md §4.9). */
export const changeOperations = {
  'booking-change-search': {
    summary: 'Search changes of a booking’s journeys',
    description:
      'The booking’s trip with the journeys given moved to a new day (and, if given, other airports), best first by price: each a ChangeOffer with the whole trip as it would be, the change penalty, the fare difference and their sum `change_total` (negative is money back). Only journeys not yet departed, the same passengers and cabin; the journeys kept stay as booked, and every journey still leaves at least 2 hours after the previous one arrives. 409 NOT_CHANGEABLE when a changed journey’s fare allows no change, the booking is not CONFIRMED, or the journey has departed.',
    tag: 'Bookings',
    request: changeSearchRequest(),
    requestExample: {
      booking_id: booking.booking_id,
      journeys: [{ index: 0, departure_date: '2026-12-03' }],
    },
    status: 200,
    response: success(z.array(ChangeOffer)),
    responseExample: { success: true, data: [answered(changeOffer)] },
    errors: ['UNAUTHORIZED', 'NOT_FOUND', 'NOT_CHANGEABLE'],
  },
  'booking-change': {
    summary: 'Change a booking’s flights',
    description:
      'Makes a change offer of booking/change-search at exactly its `change_total`: the old seats of the changed journeys go back and the new ones are taken in one transaction, the booking’s `version` grows by one and `changes` records it. A moved total is 409 PRICE_CHANGED with the fresh ChangeOffer in `details.change_offer`; an expired offer, or one for a booking that changed since, 410 OFFER_EXPIRED; no seat left, 409 SOLD_OUT. With an Idempotency-Key a retry answers the same change once. The new journeys’ conditions are sealed in the change offer: conditions moved since change-search (the price the same) are 409 CONDITIONS_CHANGED with the fresh ChangeOffer in `details.change_offer` and its Flight in `details.flight`. The new segments keep what they cost (fare and taxes) for a later refund journey by journey; the bags and seats of the changed journeys are given back (their value counts in the fare difference) and not carried over: choose them again.',
    tag: 'Bookings',
    request: changeBookingRequest(),
    requestExample: {
      booking_id: booking.booking_id,
      change_offer_id: changeOffer.id,
      change_total: changeOffer.change_total,
    },
    status: 200,
    response: success(Booking),
    responseExample: {
      success: true,
      data: {
        ...booking,
        total_price: changed.total_price,
        flight: changed,
        updated_at: '2026-11-24T10:05:00Z',
        version: 2,
        changes: [
          {
            at: '2026-11-24T10:05:00Z',
            by: booking.created_by,
            from: flight.outbound.segments,
            to: changed.outbound.segments,
            change_total: changeOffer.change_total,
          },
        ],
      },
    },
    idempotencyKey: { example: '6f1d2c3b-change-4a5b' },
    errors: [
      'UNAUTHORIZED',
      'NOT_FOUND',
      'NOT_CHANGEABLE',
      'PRICE_CHANGED',
      'SOLD_OUT',
      'OFFER_EXPIRED',
      'IDEMPOTENCY_IN_PROGRESS',
      'CONDITIONS_CHANGED',
      'IDEMPOTENCY_KEY_REUSED',
    ],
  },
} satisfies Record<string, Operation>;
