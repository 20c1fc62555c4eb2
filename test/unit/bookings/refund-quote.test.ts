import { describe, expect, it } from 'vitest';
import type { BookingRecord } from '#shared/bookings/entity/booking-item.ts';
import { refundQuoteView } from '#shared/bookings/refund-quote.ts';
import type { CancellationQuote } from '#shared/supply/port.ts';

/** A GBP 200.00 CONFIRMED booking departing on 1 April 2027 (only what the quote reads). */
const record = {
  booking_id: 'bkg_1',
  status: 'CONFIRMED',
  total: 20_000,
  currency: 'GBP',
  departs_at: Date.UTC(2027, 3, 1, 9),
} as BookingRecord;
/** A supplier's quote of `refund` (minor units) going to the balance, valid until 1 March 2027 noon. */
const quote = (refund: CancellationQuote['refund'], change: Partial<CancellationQuote> = {}) =>
  refundQuoteView(record, {
    id: 'ore_1',
    refund,
    expiresAt: '2027-03-01T12:00:00.500Z',
    refundTo: 'balance',
    airlineCredits: [],
    ...change,
  });

describe('fn: refundQuoteView, the penalty (docs/API.md §4.3)', () => {
  it('states the penalty as the price less a refund in the price’s currency', () => {
    expect(quote({ amount: 18_000, currency: 'GBP' })).toMatchObject({
      refund: { amount: 180, currency: 'GBP' },
      penalty: { amount: 20, currency: 'GBP' },
    });
  });

  it('answers no penalty (null, not unknown) for a full refund', () => {
    const view = quote({ amount: 20_000, currency: 'GBP' });

    expect(view.penalty).toBeNull();
    expect(view).not.toHaveProperty('penalty_unknown');
  });

  it('never reads a refund in another currency as no penalty: penalty null and penalty_unknown', () => {
    expect(quote({ amount: 20_000, currency: 'USD' })).toMatchObject({
      refund: { amount: 200, currency: 'USD' },
      penalty: null,
      penalty_unknown: true,
    });
  });

  it('keeps the whole price for a refund of nothing, in any currency', () => {
    const view = quote({ amount: 0, currency: 'USD' });

    expect(view.penalty).toEqual({ amount: 200, currency: 'GBP' });
    expect(view).not.toHaveProperty('penalty_unknown');
  });

  it('answers an unknown refund null (never 0), with the penalty unknown', () => {
    expect(quote(null)).toMatchObject({ refund: null, penalty: null, penalty_unknown: true });
  });
});

describe('fn: refundQuoteView, expiry and where the money goes', () => {
  it('answers the supplier’s expiry in whole seconds, null when it states none', () => {
    expect(quote(null).expires_at).toBe('2027-03-01T12:00:00Z');
    expect(quote(null, { expiresAt: null }).expires_at).toBeNull();
  });

  it('answers refund_to and each airline credit in major units, its expiry in whole seconds', () => {
    const view = quote(
      { amount: 9000, currency: 'GBP' },
      {
        refundTo: 'airline_credits',
        airlineCredits: [
          { code: 'A1', amount: 4500, currency: 'GBP', expiresAt: '2028-01-01T15:48:11.642Z' },
          { code: null, amount: 5000, currency: 'JPY', expiresAt: null },
        ],
      },
    );

    expect(view).toMatchObject({
      refund_to: 'airline_credits',
      airline_credits: [
        { code: 'A1', amount: 45, currency: 'GBP', expires_at: '2028-01-01T15:48:11Z' },
        { code: null, amount: 5000, currency: 'JPY', expires_at: null },
      ],
    });
  });

  it('answers refund_to null where the supplier names no destination it knows', () => {
    expect(quote(null, { refundTo: null }).refund_to).toBeNull();
  });
});
