import { searchFlights } from '../../../flights/search.ts';
import type { SupplierWiring } from '../parts.ts';

/** The built-in network's search and airports (parts.ts). */

export const searching: SupplierWiring['searching'] = async (ctx) => ({
  name: 'network',
  search: searchFlights(ctx),
});

/** The airports the network's routes serve, loaded only by the function that answers from them. */
export const sellableAirports: SupplierWiring['sellableAirports'] = async () => {
  const { servedAirports } = await import('../../../flights/airports.ts');
  return servedAirports();
};
