import { sellableAirports as airportsOf, searching } from '#supplier/search';
import type { AppContext } from '../context.ts';
import { airportIndex, type SellableAirport, searchAirports } from '../flights/airport-search.ts';
import type { SearchingSupplier } from './port.ts';
import type { SupplierConfig } from './supplier-config.ts';

/**
 * The parts of the stage's supplier that search and airport search use, from the stage's one supplier
 * wiring (`#supplier/*`: shared/supply/wiring/, chosen once per bundle by infra/bundling.ts; run from
 * source, SUPPLIER or the configuration given chooses).
 */
type Part<S> = (ctx: AppContext, config?: SupplierConfig) => Promise<S>;

/** Search's part. */
export const searchingSupplier: Part<SearchingSupplier> = searching;

/**
 * Airport search's part: the airports the stage's supplier sells, from data bundled with the function
 * (no token is read, no supplier called): the network's served airports, or for Duffel every airport
 * with an IATA code. A stage's bundle carries only its supplier's list (`supplier-catalog` in the route
 * table has it built for the stage's supplier); run from source, SUPPLIER (or `name`) chooses.
 */
export const sellableAirports = (name?: SupplierConfig['SUPPLIER']): Promise<SellableAirport[]> =>
  airportsOf(name);

/** Airport search's part: the stage's airports, folded into an index once per cold start. */
interface AirportCatalog {
  findAirports(query: string, limit: number): SellableAirport[];
}

export const catalogSupplier = async (
  _ctx: AppContext,
  name?: SupplierConfig['SUPPLIER'],
): Promise<AirportCatalog> => {
  const index = airportIndex(await sellableAirports(name));
  return { findAirports: (query, limit) => searchAirports(index, query, limit) };
};

/** The context of a function that calls the supplier, with the part it uses. */
type WithSupplier<S> = AppContext & { readonly supplier: S };

/** The contexts of the functions that call the supplier, each with its part. */
export type SearchContext = WithSupplier<SearchingSupplier>;
export type CatalogContext = WithSupplier<AirportCatalog>;
