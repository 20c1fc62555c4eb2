import type { QuoteFlow } from '../../bookings/flow.ts';
import { refundQuoteView } from '../../bookings/refund-quote.ts';
import { NotCancellableError } from '../../errors.ts';
import type { RemoteOrders } from '../port.ts';

/**
 * The refund quote with a remote supplier (refund-quote.ts): the supplier quotes a CONFIRMED booking's
 * refund, asked for and never confirmed here.
 */
export const remoteQuoting = (orders: RemoteOrders): QuoteFlow => ({
  ownRefund: () => undefined,
  async quoteRefund(record) {
    const orderId = record.supplier?.order_id;
    if (!orderId) throw new NotCancellableError('The booking has no supplier order to cancel.');
    const quote = await orders.quoteCancellation(orderId, record.currency);
    // Cancelled at the supplier already (a cancel whose answer was lost): the cancel route settles it.
    if (quote === 'cancelled') throw new NotCancellableError('The booking is being cancelled.');
    return refundQuoteView(record, quote);
  },
});
