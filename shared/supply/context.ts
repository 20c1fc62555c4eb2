import type { AppContext } from '../context.ts';
import { airportIndex, type SellableAirport, searchAirports } from '../flights/airport-search.ts';
import { searchFlights } from '../flights/search.ts';
import { networkOffers } from './network-offers.ts';
import { networkOrders } from './network-orders.ts';
import type { BookingSupplier, OrdersSupplier, RemoteSupplier, SearchingSupplier } from './port.ts';
import type { SupplierConfig } from './supplier-config.ts';

/**
 * The supplier the configuration names, part by part. Each route's function builds only the part it
 * uses, so its bundle carries only that part's code; and `process.env.BUNDLED_SUPPLIER` is replaced by
 * a constant when a stage's functions are bundled (infra/bundling.ts), so the other supplier's branch
 * is dead code and its adapter is left out. Run from source (tests, `npm start`) it is unset and both
 * are there. For Duffel the token is read here, once per cold start — from Secrets Manager deployed,
 * from the environment locally — and kept only inside the adapter's client.
 */
type Part<S> = (ctx: AppContext, config?: SupplierConfig) => Promise<S>;

const duffel = async (ctx: AppContext, given?: SupplierConfig): Promise<RemoteSupplier | undefined> => {
  // Written so that esbuild sees a constant-false branch in a network bundle and drops the imports:
  // a network stage's function neither parses the supplier settings nor carries the adapter.
  if (process.env.BUNDLED_SUPPLIER !== 'network') {
    const { readSupplierConfig } = await import('./supplier-config.ts');
    const config = given ?? readSupplierConfig();
    if (config.SUPPLIER === 'duffel') {
      const { createDuffelSupplier } = await import('./duffel/from-config.ts');
      return createDuffelSupplier(ctx, config);
    }
  }
  return undefined;
};
const refused = () => new Error('this bundle sells from Duffel: set SUPPLIER=duffel and its token');

/** Search's part. */
export const searchingSupplier: Part<SearchingSupplier> = async (ctx, config) => {
  const remote = await duffel(ctx, config);
  if (remote) return remote;
  if (process.env.BUNDLED_SUPPLIER !== 'duffel') {
    return { name: 'network', search: searchFlights(ctx) };
  }
  throw refused();
};

/** Booking create's part: offers, re-quotes and orders. */
export const bookingSupplier: Part<BookingSupplier> = async (ctx, config) => {
  const remote = await duffel(ctx, config);
  if (remote) return remote;
  if (process.env.BUNDLED_SUPPLIER !== 'duffel') {
    return networkOffers(ctx);
  }
  throw refused();
};

/** The part of confirm, cancel, the refund quote and the sweep: the supplier's orders. */
export const ordersSupplier: Part<OrdersSupplier> = async (ctx, config) => {
  const remote = await duffel(ctx, config);
  if (remote) return remote;
  if (process.env.BUNDLED_SUPPLIER !== 'duffel') {
    return networkOrders(ctx);
  }
  throw refused();
};

/**
 * Airport search's part: the airports the stage's supplier sells, from data bundled with the function
 * (no token is read, no supplier called): the network's served airports, or for Duffel every airport
 * with an IATA code. A stage's bundle carries only its supplier's list (`supplier-catalog` in the route
 * table has it built for the stage's supplier); run from source, SUPPLIER (or `name`) chooses.
 */
export async function sellableAirports(name?: SupplierConfig['SUPPLIER']): Promise<SellableAirport[]> {
  let supplier = name ?? process.env.BUNDLED_SUPPLIER;
  if (process.env.BUNDLED_SUPPLIER === undefined && supplier === undefined) {
    const { readSupplierName } = await import('./supplier-config.ts');
    supplier = readSupplierName();
  }
  if (process.env.BUNDLED_SUPPLIER !== 'network' && supplier === 'duffel') {
    const { worldAirports } = await import('../flights/world-airports.ts');
    return worldAirports();
  }
  if (process.env.BUNDLED_SUPPLIER !== 'duffel') {
    const { servedAirports } = await import('../flights/airports.ts');
    return servedAirports();
  }
  throw refused();
}

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
