import type {
  CancelFlow,
  ChangeFlow,
  ConfirmFlow,
  OfferFlow,
  QuoteFlow,
  SweepFlow,
} from '../../bookings/flow.ts';
import type { AppContext } from '../../context.ts';
import type { SellableAirport } from '../../flights/airport-search.ts';
import type { BookingSupplier, OrdersSupplier, SearchingSupplier } from '../port.ts';
import type { SupplierConfig } from '../supplier-config.ts';

/**
 * What one supplier's wiring gives each function: its part of the port, and for the booking functions
 * booking's flow for that supplier's kind paired with it. Each supplier has one wiring folder
 * (network/, duffel/: search.ts, offers.ts, orders.ts, as the functions use them), chosen once per bundle
 * by the condition of the `#supplier/*` imports (package.json `imports`, infra/bundling.ts); run from
 * source, local.ts picks one of the two by the configuration (SUPPLIER). The only place that knows
 * which suppliers there are: booking code is given its supplier's flow and never asks.
 */
type Part<S> = (ctx: AppContext, config?: SupplierConfig) => Promise<S>;

/** A supplier part with create's flow for it. */
export interface Offering {
  readonly supplier: BookingSupplier;
  readonly offerFlow: OfferFlow;
}

/** The supplier's orders with a function's part `F` of the flow after create. */
export interface Ordering<F> {
  readonly supplier: OrdersSupplier;
  readonly orderFlow: F;
}

/** Every export a wiring module has: local.ts checks both modules against it. */
export interface SupplierWiring {
  searching: Part<SearchingSupplier>;
  offering: Part<Offering>;
  confirming: Part<Ordering<ConfirmFlow>>;
  cancelling: Part<Ordering<CancelFlow>>;
  quoting: Part<Ordering<QuoteFlow>>;
  sweeping: Part<Ordering<SweepFlow>>;
  changing: Part<Ordering<ChangeFlow>>;
  /** The airports the supplier sells, from data bundled with the function (no supplier is called). */
  sellableAirports: (name?: SupplierConfig['SUPPLIER']) => Promise<SellableAirport[]>;
}
