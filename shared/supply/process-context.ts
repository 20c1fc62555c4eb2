import { context } from '../context.ts';
import { type SupplierContext, withSupplier } from './context.ts';

/** The process-wide context with the stage's supplier, built during the Lambda init phase. */
export const supplierContext: SupplierContext = await withSupplier(context);

export type { SupplierContext };
