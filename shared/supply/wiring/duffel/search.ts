import type { SupplierWiring } from '../parts.ts';
import { duffelSupplier } from './adapter.ts';

/** Duffel's search and airports (parts.ts). */

export const searching: SupplierWiring['searching'] = duffelSupplier;

/** Every airport with an IATA code: Duffel sells them all (no token read, no call made). */
export const sellableAirports: SupplierWiring['sellableAirports'] = async () => {
  const { worldAirports } = await import('../../../flights/world-airports.ts');
  return worldAirports();
};
