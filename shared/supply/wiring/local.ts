import type { AppContext } from '../../context.ts';
import { readSupplierConfig, readSupplierName, type SupplierConfig } from '../supplier-config.ts';
import * as duffelOffers from './duffel/offers.ts';
import * as duffelOrders from './duffel/orders.ts';
import * as duffelSearch from './duffel/search.ts';
import * as networkOffers from './network/offers.ts';
import * as networkOrders from './network/orders.ts';
import * as networkSearch from './network/search.ts';
import type { SupplierWiring } from './parts.ts';

/**
 * The wiring run from source (tests, `npm start`): `#supplier/*` resolves here without a bundle's
 * condition, and each part picks one supplier's wiring at run time by the configuration given, or
 * SUPPLIER. A bundle never carries this module (infra/bundling.ts).
 */
const wirings: Record<SupplierConfig['SUPPLIER'], SupplierWiring> = {
  network: { ...networkSearch, ...networkOffers, ...networkOrders },
  duffel: { ...duffelSearch, ...duffelOffers, ...duffelOrders },
};

/** The wiring of the supplier `config` names (the process's configuration by default). */
const wiringOf = (config: SupplierConfig | undefined) => wirings[(config ?? readSupplierConfig()).SUPPLIER];

type Parts = Omit<SupplierWiring, 'sellableAirports'>;
const picked =
  <K extends keyof Parts>(part: K) =>
  (ctx: AppContext, config?: SupplierConfig): ReturnType<Parts[K]> =>
    wiringOf(config)[part](ctx, config) as ReturnType<Parts[K]>;

export const searching = picked('searching');
export const offering = picked('offering');
export const confirming = picked('confirming');
export const cancelling = picked('cancelling');
export const quoting = picked('quoting');
export const sweeping = picked('sweeping');
export const changing = picked('changing');

export const sellableAirports: SupplierWiring['sellableAirports'] = (name) =>
  wirings[name ?? readSupplierName()].sellableAirports();
