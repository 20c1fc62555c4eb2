import type { SupplierWiring } from '../parts.ts';
import { duffelSupplier } from './adapter.ts';

/** The parts after create for Duffel (parts.ts): its orders, each function's part of the remote flow. */

export const confirming: SupplierWiring['confirming'] = async (ctx, config) => {
  const { remoteConfirming } = await import('../../remote/confirm.ts');
  const { remoteLapsing } = await import('../../remote/hold.ts');
  const supplier = await duffelSupplier(ctx, config);
  const { orders } = supplier;
  return { supplier, orderFlow: { ...remoteConfirming(orders), ...remoteLapsing(orders) } };
};

export const cancelling: SupplierWiring['cancelling'] = async (ctx, config) => {
  const { remoteCancelling } = await import('../../remote/cancel.ts');
  const { remoteLapsing } = await import('../../remote/hold.ts');
  const supplier = await duffelSupplier(ctx, config);
  const { orders } = supplier;
  return { supplier, orderFlow: { ...remoteCancelling(orders), ...remoteLapsing(orders) } };
};

export const quoting: SupplierWiring['quoting'] = async (ctx, config) => {
  const { remoteQuoting } = await import('../../remote/quote.ts');
  const supplier = await duffelSupplier(ctx, config);
  return { supplier, orderFlow: remoteQuoting(supplier.orders) };
};

export const sweeping: SupplierWiring['sweeping'] = async (ctx, config) => {
  const { remoteLapsing } = await import('../../remote/hold.ts');
  const { remoteSweeping } = await import('../../remote/sweep.ts');
  const supplier = await duffelSupplier(ctx, config);
  return { supplier, orderFlow: { ...remoteLapsing(supplier.orders), ...remoteSweeping(supplier.orders) } };
};

export const changing: SupplierWiring['changing'] = async (ctx, config) => {
  const { remoteChanging } = await import('../../remote/change.ts');
  const supplier = await duffelSupplier(ctx, config);
  return { supplier, orderFlow: remoteChanging(supplier.orders) };
};
