import { transact, unslotted } from '../db/transaction.ts';
import { PriceChangedError } from '../errors.ts';
import { minorUnits, toMajor } from '../money.ts';
import { bookingView, cancelledView, writerClock } from './entity/booking.ts';
import { cancelWrites, confirmWrites } from './entity/booking-ends.ts';
import { changeStamp } from './entity/booking-item.ts';
import type { OrderFlow } from './flow.ts';
import { conditionsQuote } from './refund-quote.ts';

/**
 * Booking with an in-table supplier (the built-in network, docs/bookings.md): the seats are in our own
 * table, so every change of a booking is one transaction with its seats — nothing outside to call,
 * nothing to settle later. Whether a write came in time is its condition's to say (the deadline rule,
 * booking.ts), by the clock as it writes. Create's part is apart (in-table-offer-flow.ts), so that no
 * other function carries create's writes.
 */

/** Confirm's part: one transaction conditioned on the deadline rule. */
export const inTableConfirming: Pick<OrderFlow, 'confirmHold' | 'checkHeldPrice'> = {
  async confirmHold(deps, { record, lock }) {
    // The deadline rule (booking.ts): in time or not is this write's condition, by the clock as it writes.
    const at = writerClock(deps.clock);
    const view = bookingView({
      ...record,
      status: 'CONFIRMED',
      payment_required_by: undefined,
      updated_at: at,
      version: changeStamp(record).version + 1,
    });
    const writes = confirmWrites(deps.tableName, record, { at, view, lock });
    return transact(deps.db, () => unslotted(writes), { written: () => view });
  },
  checkHeldPrice(record, price) {
    const same =
      price.currency === record.currency &&
      minorUnits(String(price.total_price), record.currency) === record.total;
    if (same) return;
    throw new PriceChangedError({
      previous_total_price: price.total_price,
      total_price: toMajor(record.total, record.currency),
      currency: record.currency,
    });
  },
};

/** Cancel's part: one transaction with the seats back. */
export const inTableCancelling: Pick<OrderFlow, 'cancel' | 'ownRefund'> = {
  ownRefund: conditionsQuote,
  async cancel(deps, record, { own, at, by }) {
    // What the fare's conditions, as sold, give back of a confirmed booking; a hold was never paid.
    const cancelled = {
      at,
      by,
      refund: own?.refund ?? undefined,
      // Where it goes: the agency's account (a hold's: nowhere, nothing was paid).
      ...(own && { refund_to: own.refund_to, airline_credits: own.airline_credits }),
    };
    const seats = deps.supplier.orders.seatsBack(record);
    const writes = cancelWrites(deps.tableName, record, cancelled, { seats });
    return transact(deps.db, () => unslotted(writes), { written: () => cancelledView(record, cancelled) });
  },
};

/** The refund by the fare conditions the booking was sold with: nobody else is asked. */
export const inTableQuoting: Pick<OrderFlow, 'ownRefund' | 'quoteRefund'> = {
  ownRefund: conditionsQuote,
  quoteRefund: async (record) => conditionsQuote(record),
};

/** The end of a late hold: nothing outside can have paid it, so it simply expires. */
export const inTableLapsing: Pick<OrderFlow, 'endLateHold' | 'holdCall'> = {
  endLateHold: async () => ({ expire: true }),
  holdCall: () => undefined,
};

/** The sweep's part: nothing is ever PENDING and no call is ever left (the seats were taken in the booking's transaction). */
export const inTableSweeping: Pick<OrderFlow, 'sweepPending' | 'settleLeftCalls'> = {
  sweepPending: async () => ({ confirmed: 0, held: 0, failed: 0, waiting: 0 }),
  settleLeftCalls: async () => ({ cancelled: 0, confirmed: 0, changed: 0, cleared: 0, waiting: 0 }),
};
