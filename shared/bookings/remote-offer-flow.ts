import type { RemoteSupplier } from '../supply/port.ts';
import type { OfferFlow } from './flow.ts';
import { orderRemotely } from './remote-order.ts';

/** Create's flow: PENDING first, one order call, then settled (remote-order.ts). */
export const remoteOfferFlow = (supplier: Pick<RemoteSupplier, 'openOffer'>): OfferFlow => ({
  open: (flightId) => {
    const offer = supplier.openOffer(flightId);
    return (
      offer && {
        ...offer,
        book: (deps, record, lock) => orderRemotely(deps, { record, offer, ordering: offer.ordering, lock }),
      }
    );
  },
});
