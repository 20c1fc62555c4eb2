import { describe, expect, it } from 'vitest';
import { createLogger } from '#shared/log.ts';
import type { DuffelSend } from '#shared/supply/duffel/client.ts';
import { quoteCancellation } from '#shared/supply/duffel/orders.ts';
import type { Wire } from '../../../infra/local/duffel-stand-in.ts';

const log = createLogger('info');

/** Duffel's order cancellation as the wire brings it, with `change`d fields. */
const cancellation = (change: Wire = {}): Wire => ({
  id: 'ore_0000A',
  order_id: 'ord_0000A',
  live_mode: false,
  created_at: '2027-03-01T12:00:00.000Z',
  expires_at: '2027-03-01T12:05:00.000Z',
  confirmed_at: null,
  refund_amount: '90.00',
  refund_currency: 'GBP',
  refund_to: 'balance',
  airline_credits: [],
  ...change,
});
/** Duffel's quote for a GBP order, answered `change`d. */
const quoted = async (change: Wire = {}) => {
  const send = (async () => ({ data: cancellation(change) })) as unknown as DuffelSend;
  const quote = await quoteCancellation(send, 'ord_0000A', 'GBP', log);
  if (quote === 'cancelled') throw new Error('not a quote');
  return quote;
};
const credit = (change: Wire = {}): Wire => ({
  id: 'acd_0000A',
  credit_name: 'Future Flight Credit',
  credit_code: '1251234567890',
  credit_amount: '45.00',
  credit_currency: 'GBP',
  issued_on: '2027-02-01',
  passenger_id: 'pas_0000A',
  ...change,
});

describe('fn: quoteCancellation (Duffel), where the refund goes', () => {
  it.each(['balance', 'card', 'voucher', 'airline_credits', 'arc_bsp_cash', 'awaiting_payment'])(
    'reads refund_to %s as Duffel states it',
    async (to) => {
      expect((await quoted({ refund_to: to })).refundTo).toBe(to);
    },
  );

  it.each([
    ['a value Duffel may add later', 'original_form_of_payment'],
    ['null', null],
    ['missing', undefined],
    ['not a string', 7],
  ])('reads refund_to %s as null, the refund still as stated', async (_what, to) => {
    const quote = await quoted({ refund_to: to });

    expect(quote.refundTo).toBeNull();
    expect(quote.refund).toEqual({ amount: 9000, currency: 'GBP' });
  });
});

describe('fn: quoteCancellation (Duffel), airline credits', () => {
  it('reads each credit in minor units of its own currency, its code, and no expiry', async () => {
    const quote = await quoted({
      airline_credits: [
        credit(),
        credit({ credit_amount: '5000', credit_currency: 'JPY', credit_code: 'X1' }),
      ],
    });

    expect(quote.airlineCredits).toEqual([
      { code: '1251234567890', amount: 4500, currency: 'GBP', expiresAt: null },
      { code: 'X1', amount: 5000, currency: 'JPY', expiresAt: null },
    ]);
  });

  it.each([
    ['null', null],
    ['empty', ''],
    ['missing', undefined],
  ])('reads a credit whose credit_code is %s as code null, keeping the credit', async (_what, code) => {
    const quote = await quoted({ airline_credits: [credit({ credit_code: code })] });

    expect(quote.airlineCredits).toEqual([{ code: null, amount: 4500, currency: 'GBP', expiresAt: null }]);
  });

  it('reads an expires_at where a credit carries one, and null for one that is not a date', async () => {
    const quote = await quoted({
      airline_credits: [
        credit({ expires_at: '2028-01-01T15:48:11.642Z' }),
        credit({ expires_at: 'soon' }),
        credit({ expires_at: null }),
      ],
    });

    expect(quote.airlineCredits.map((c) => c.expiresAt)).toEqual(['2028-01-01T15:48:11.642Z', null, null]);
  });

  it.each([
    ['an amount that is not one', { credit_amount: 'lots' }],
    ['an amount without its currency', { credit_currency: null }],
    ['more decimals than the currency has', { credit_amount: '1.005' }],
    ['a null credit', null],
  ])('leaves out a credit with %s', async (_what, change) => {
    const unreadable = change === null ? null : credit(change);

    const quote = await quoted({ airline_credits: [unreadable, credit({ credit_code: 'KEPT' })] });

    expect(quote.airlineCredits.map((c) => c.code)).toEqual(['KEPT']);
  });

  it.each([
    ['null', null],
    ['missing', undefined],
  ])('reads a list of credits that is %s as none', async (_what, credits) => {
    expect((await quoted({ airline_credits: credits })).airlineCredits).toEqual([]);
  });
});
