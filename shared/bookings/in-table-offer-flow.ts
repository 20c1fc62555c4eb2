import type { InTableSupplier } from '../supply/port.ts';
import { bookingView } from './entity/booking.ts';
import { createWrites } from './entity/booking-writes.ts';
import type { OfferFlow } from './flow.ts';

/**
 * Create's part of the in-table flow (in-table-flow.ts): one TransactWriteItems takes the seats in the
 * quoted bucket on every segment and makes the booking, its PNR, the offer's marker and the
 * Idempotency-Key's answer (createWrites), all of it or none of it.
 */
export const inTableOfferFlow = (supplier: Pick<InTableSupplier, 'openOffer'>): OfferFlow => ({
  open: (flightId) => {
    const offer = supplier.openOffer(flightId);
    if (!offer) return undefined;
    const { holding } = offer.ordering;
    return {
      ...offer,
      book: async (deps, record, lock, seats = []) => {
        const made = (pnr: string) => ({
          ...record,
          pnr,
          seats: holding.seats,
          segments: holding.segments.map((segment, i) => {
            const chosen = seats.filter((s) => s.segmentIndex === i).map((s) => s.designator);
            return chosen.length > 0 ? { ...segment, seats: chosen } : { ...segment };
          }),
        });
        const pnr = await offer.ordering.reserve((candidate) => {
          const booked = made(candidate);
          return createWrites(deps.tableName, booked, offer, lock, {
            status: 201,
            data: bookingView(booked),
          });
        }, seats);
        return bookingView(made(pnr));
      },
    };
  },
});
