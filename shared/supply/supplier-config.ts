import * as z from 'zod/mini';
import { readEnv } from '../config.ts';
import '../zod-locale.ts';

const nonEmpty = () => z.string().check(z.minLength(1));

/**
 * Where flights come from (docs/API.md §4.5, §6): read by the functions that call the supplier, and only
 * when their bundle is not a network stage's (shared/supply/context.ts).
 */
const SupplierName = z._default(z.enum(['network', 'duffel']), 'network');

const SupplierConfig = z
  .object({
    SUPPLIER: SupplierName,
    /** The Duffel token itself: locally only. */
    DUFFEL_ACCESS_TOKEN: z.optional(nonEmpty()),
    /** Secrets Manager id of the Duffel token (deployed). */
    DUFFEL_TOKEN_SECRET_ID: z.optional(nonEmpty()),
    DUFFEL_API_URL: z._default(z.url(), 'https://api.duffel.com'),
    /** Whether the stage sells real tickets: a `duffel_live_` token is refused otherwise. */
    DUFFEL_LIVE: z._default(z.enum(['true', 'false']), 'false'),
    /** Per call to Duffel; order creation gets DUFFEL_ORDER_TIMEOUT_MS. */
    DUFFEL_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.minimum(50), z.maximum(20_000)), 4000),
    DUFFEL_ORDER_TIMEOUT_MS: z._default(
      z.coerce.number().check(z.int(), z.minimum(50), z.maximum(25_000)),
      12_000,
    ),
    AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  })
  .check(
    z.superRefine((env, ctx) => {
      if (env.SUPPLIER !== 'duffel') return;
      if (Boolean(env.DUFFEL_ACCESS_TOKEN) === Boolean(env.DUFFEL_TOKEN_SECRET_ID)) {
        ctx.addIssue({
          code: 'custom',
          path: ['DUFFEL_ACCESS_TOKEN'],
          message: 'set exactly one of DUFFEL_ACCESS_TOKEN (local) or DUFFEL_TOKEN_SECRET_ID (deployed)',
        });
      }
      if (env.DUFFEL_ACCESS_TOKEN && env.AWS_LAMBDA_FUNCTION_NAME) {
        ctx.addIssue({
          code: 'custom',
          path: ['DUFFEL_ACCESS_TOKEN'],
          message: 'deployed, the token is read from Secrets Manager (DUFFEL_TOKEN_SECRET_ID)',
        });
      }
    }),
  );

export type SupplierConfig = z.output<typeof SupplierConfig>;

export function readSupplierConfig(env: NodeJS.ProcessEnv = process.env): SupplierConfig {
  return readEnv(SupplierConfig, env);
}

/** Only which supplier the stage sells from, for a function that reads no token (airport search). */
export function readSupplierName(env: NodeJS.ProcessEnv = process.env): SupplierConfig['SUPPLIER'] {
  return readEnv(z.object({ SUPPLIER: SupplierName }), env).SUPPLIER;
}
