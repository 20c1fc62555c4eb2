import type { AppContext } from '../../../context.ts';
import type { RemoteSupplier } from '../../port.ts';
import type { SupplierConfig } from '../../supplier-config.ts';

/**
 * The Duffel adapter the configuration sets up: its token read here, once per cold start (from Secrets
 * Manager deployed, from the environment locally), and kept only inside the adapter's client.
 */
export async function duffelSupplier(ctx: AppContext, given?: SupplierConfig): Promise<RemoteSupplier> {
  const { readSupplierConfig } = await import('../../supplier-config.ts');
  const config = given ?? readSupplierConfig();
  if (config.SUPPLIER !== 'duffel')
    throw new Error('this bundle sells from Duffel: set SUPPLIER=duffel and its token');
  const { createDuffelSupplier } = await import('../../duffel/from-config.ts');
  return createDuffelSupplier(ctx, config);
}
