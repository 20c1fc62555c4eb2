import { inTableOfferFlow } from '../../../bookings/in-table-offer-flow.ts';
import { networkOffers } from '../../network-offers.ts';
import type { SupplierWiring } from '../parts.ts';

/** Create's part for the built-in network (parts.ts): its offers, booked in the table. */
export const offering: SupplierWiring['offering'] = async (ctx) => {
  const supplier = networkOffers(ctx);
  return { supplier, offerFlow: inTableOfferFlow(supplier) };
};
