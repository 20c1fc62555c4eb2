import {
  inTableCancelling,
  inTableConfirming,
  inTableLapsing,
  inTableQuoting,
  inTableSweeping,
} from '../../../bookings/in-table-flow.ts';
import type { AppContext } from '../../../context.ts';
import { networkOrders } from '../../network-orders.ts';
import type { SupplierWiring } from '../parts.ts';

/**
 * The parts after create for the built-in network (parts.ts): its orders (the seats back on cancel or
 * expiry), each function's part of the in-table flow with them.
 */
const orders = async (ctx: AppContext) => networkOrders(ctx);

export const confirming: SupplierWiring['confirming'] = async (ctx) => ({
  supplier: await orders(ctx),
  orderFlow: { ...inTableConfirming, ...inTableLapsing },
});

export const cancelling: SupplierWiring['cancelling'] = async (ctx) => ({
  supplier: await orders(ctx),
  orderFlow: { ...inTableCancelling, ...inTableLapsing },
});

export const quoting: SupplierWiring['quoting'] = async (ctx) => ({
  supplier: await orders(ctx),
  orderFlow: inTableQuoting,
});

export const sweeping: SupplierWiring['sweeping'] = async (ctx) => ({
  supplier: await orders(ctx),
  orderFlow: { ...inTableLapsing, ...inTableSweeping },
});

/** Changes on the network are the in-table ones of bookings/change-search.ts and change.ts: no supplier's own. */
export const changing: SupplierWiring['changing'] = async (ctx) => ({
  supplier: await orders(ctx),
  orderFlow: {},
});
