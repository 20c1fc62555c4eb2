import * as z from 'zod';

/**
 * Settings every function needs, read from the environment once per cold start. A missing or
 * malformed variable fails start-up with a message naming it; nothing has a silent production default
 * that could be wrong (there is no built-in key).
 */
const CoreConfig = z
  .object({
    TABLE_NAME: z.string().min(1),
    /** Local DynamoDB endpoint; unset in AWS. */
    DYNAMODB_ENDPOINT: z.url().optional(),
    /** Secrets Manager id of the signing key (deployed). */
    SIGNING_KEY_SECRET_ID: z.string().min(1).optional(),
    /** File holding the signing key (local). */
    SIGNING_KEY_FILE: z.string().min(1).optional(),
    TOKEN_ISSUER: z.string().min(1).default('flight-booking-api'),
    TOKEN_AUDIENCE: z.string().min(1).default('flight-booking-agents'),
    /** send-otp answers no sooner than this, registered or not (no timing enumeration). */
    OTP_SEND_MIN_MS: z.coerce.number().int().min(0).max(5000).default(350),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** Comma-separated browser origins allowed by CORS; unset means no CORS headers at all. */
    CORS_ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
  })
  .refine((env) => Boolean(env.SIGNING_KEY_SECRET_ID) !== Boolean(env.SIGNING_KEY_FILE), {
    message: 'set exactly one of SIGNING_KEY_SECRET_ID (deployed) or SIGNING_KEY_FILE (local)',
    path: ['SIGNING_KEY_SECRET_ID'],
  });

export type CoreConfig = z.output<typeof CoreConfig>;

/** Thrown when the environment is incomplete; its message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses `env` with `schema`, or throws a {@link ConfigError} naming each bad variable.
 *
 * @example readEnv(CoreConfig, process.env)
 */
export function readEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

export function readCoreConfig(env: NodeJS.ProcessEnv = process.env): CoreConfig {
  return readEnv(CoreConfig, env);
}
