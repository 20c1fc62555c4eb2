import type { SupplierWiring } from '../parts.ts';
import { duffelSupplier } from './adapter.ts';

/** Create's part for Duffel (parts.ts): its offers, ordered by the remote flow. */
export const offering: SupplierWiring['offering'] = async (ctx, config) => {
  const { remoteOfferFlow } = await import('../../remote/order.ts');
  const supplier = await duffelSupplier(ctx, config);
  return { supplier, offerFlow: remoteOfferFlow(supplier) };
};
