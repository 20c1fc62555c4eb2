import * as z from 'zod/mini';
import { KNOWN_COUNTRY_CODES } from './phone-ranges.ts';
import './zod-locale.ts';

const nonEmpty = () => z.string().check(z.minLength(1));

/**
 * Agency bounds (docs/API.md §3.4), deployed from the stage file: the country calling codes agents'
 * phone numbers may have (comma-separated, each one shared/phone-ranges.ts lists; default: all
 * of them, locally) and how many codes one agency's agents may be sent in an hour.
 */
const AgencyBoundsConfig = z.object({
  ALLOWED_PHONE_COUNTRY_CODES: z.pipe(
    z._default(z.string(), KNOWN_COUNTRY_CODES.join(',')),
    z.transform((value, ctx) => {
      const codes = value.split(',').map((code) => code.trim());
      const unknown = codes.filter((code) => !KNOWN_COUNTRY_CODES.includes(code));
      if (unknown.length > 0 || new Set(codes).size !== codes.length)
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `must be distinct country calling codes among ${KNOWN_COUNTRY_CODES.join(', ')} (got ${value || 'none'})`,
        });
      return codes;
    }),
  ),
  AGENCY_CODES_PER_HOUR: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 100),
});

type AgencyBoundsConfig = z.output<typeof AgencyBoundsConfig>;

/** The agency bounds alone: the operator's CLI reads them without the rest of a function's settings. */
export const readAgencyBounds = (env: NodeJS.ProcessEnv = process.env): AgencyBoundsConfig =>
  readEnv(AgencyBoundsConfig, env);

/**
 * The one place the environment is read. Settings every function needs, read once per cold start. A missing or
 * malformed variable fails start-up with a message naming it; nothing has a silent production default
 * that could be wrong (there is no built-in key).
 */
const TableSettings = {
  TABLE_NAME: nonEmpty(),
  /** Local DynamoDB endpoint; unset in AWS. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  /** Set by Lambda; locally only the signing region of DynamoDB Local's fixed credentials. */
  AWS_REGION: z._default(nonEmpty(), 'us-east-1'),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error']), 'info'),
  /** The deployed stage (set by the stack); on every log line and in the metrics derived from them. */
  STAGE: z._default(nonEmpty(), 'local'),
};

const CoreConfig = z
  .object({
    ...AgencyBoundsConfig.shape,
    ...TableSettings,
    /** Secrets Manager id of the signing key (deployed). */
    SIGNING_KEY_SECRET_ID: z.optional(nonEmpty()),
    /** File holding the signing key (local). */
    SIGNING_KEY_FILE: z.optional(nonEmpty()),
    TOKEN_ISSUER: z._default(nonEmpty(), 'flight-booking-api'),
    TOKEN_AUDIENCE: z._default(nonEmpty(), 'flight-booking-agents'),
    /** send-otp answers no sooner than this, registered or not (no timing enumeration). */
    OTP_SEND_MIN_MS: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(5000)), 350),
    /**
     * How long a new hold lasts, in minutes (fractions too, from 0.05 = 3 s), instead of the rule of
     * docs/API.md §4.4 (24 hours): for trying holds locally and in tests. Refused when deployed.
     */
    HOLD_MINUTES: z.optional(z.coerce.number().check(z.minimum(0.05), z.maximum(1440))),
    /** Set by Lambda: what marks a deployed function. */
    AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
    /** Comma-separated browser origins allowed by CORS; unset means no CORS headers at all. */
    CORS_ALLOWED_ORIGINS: z.pipe(
      z._default(z.string(), ''),
      z.transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
    ),
  })
  .check(
    z.refine((env) => Boolean(env.SIGNING_KEY_SECRET_ID) !== Boolean(env.SIGNING_KEY_FILE), {
      message: 'set exactly one of SIGNING_KEY_SECRET_ID (deployed) or SIGNING_KEY_FILE (local)',
      path: ['SIGNING_KEY_SECRET_ID'],
    }),
    z.refine((env) => env.HOLD_MINUTES === undefined || !env.AWS_LAMBDA_FUNCTION_NAME, {
      message: 'is for local runs and tests only, never in a deployed function',
      path: ['HOLD_MINUTES'],
    }),
  );

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
export function readEnv<S extends z.ZodMiniType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

export function readCoreConfig(env: NodeJS.ProcessEnv = process.env): CoreConfig {
  return readEnv(CoreConfig, env);
}

/** The X-Ray trace id of the invocation in progress: Lambda sets it anew for every invocation. */
export const currentTraceId = (env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env._X_AMZN_TRACE_ID?.split(';')[0]?.replace(/^Root=/, '') || undefined;

/**
 * An SMS sender id as AWS takes it: 3–11 letters or digits, at least one a letter (an all-digit id is
 * refused by carriers as a phone number). The stage files, the account file and the function's
 * environment all use this one rule.
 */
export const SMS_SENDER_ID_PATTERN = /^(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{3,11}$/;
export const SMS_SENDER_ID_RULE = 'must be 3-11 letters or digits, at least one of them a letter';

/**
 * How send-otp delivers codes: SES and SNS when deployed, the local outbox in development. This schema and
 * the events' and webhook URL's below are built when read, so a function makes only the one it reads.
 */
const senderConfig = () =>
  z
    .object({
      /** `aws`: SES and SNS. `outbox`: local file and console, refused inside Lambda. */
      CODE_SENDER: z._default(z.enum(['aws', 'outbox']), 'aws'),
      SES_FROM_ADDRESS: z.optional(z.email()),
      SES_CONFIGURATION_SET: z.optional(nonEmpty()),
      SMS_SENDER_ID: z.optional(z.string().check(z.regex(SMS_SENDER_ID_PATTERN, SMS_SENDER_ID_RULE))),
      DATA_DIR: z.optional(nonEmpty()),
      AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
    })
    .check(
      z.superRefine((env, ctx) => {
        if (env.CODE_SENDER === 'aws' && !env.SES_FROM_ADDRESS) {
          ctx.addIssue({
            code: 'custom',
            path: ['SES_FROM_ADDRESS'],
            message: 'required when CODE_SENDER is aws',
          });
        }
        if (env.CODE_SENDER === 'outbox' && !env.DATA_DIR) {
          ctx.addIssue({
            code: 'custom',
            path: ['DATA_DIR'],
            message: 'required when CODE_SENDER is outbox',
          });
        }
        if (env.CODE_SENDER === 'outbox' && env.AWS_LAMBDA_FUNCTION_NAME) {
          ctx.addIssue({ code: 'custom', path: ['CODE_SENDER'], message: 'the outbox never runs in Lambda' });
        }
      }),
    );

type SenderConfig = z.output<ReturnType<typeof senderConfig>>;

export function readSenderConfig(env: NodeJS.ProcessEnv = process.env): SenderConfig {
  return readEnv(senderConfig(), env);
}

/**
 * Where webhooks may point (shared/events/webhook-url.ts): `deployed` (the default, and the only value
 * Lambda accepts) or `local` (the dev server: loopback receivers over http). Setting `deployed` locally
 * turns every address check on, as tests of it do.
 */
const webhookUrlSettings = () => ({
  WEBHOOK_URL_POLICY: z._default(z.enum(['deployed', 'local']), 'deployed'),
  AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
});
const inLambdaOnlyDeployed = () =>
  z.superRefine((env: { WEBHOOK_URL_POLICY: string; AWS_LAMBDA_FUNCTION_NAME?: string | undefined }, ctx) => {
    if (env.AWS_LAMBDA_FUNCTION_NAME && env.WEBHOOK_URL_POLICY !== 'deployed')
      ctx.addIssue({ code: 'custom', path: ['WEBHOOK_URL_POLICY'], message: 'must be deployed in Lambda' });
  });
const webhookUrlConfig = () => z.object(webhookUrlSettings()).check(inLambdaOnlyDeployed());

export function readWebhookUrlPolicy(env: NodeJS.ProcessEnv = process.env): 'deployed' | 'local' {
  return readEnv(webhookUrlConfig(), env).WEBHOOK_URL_POLICY;
}

/**
 * The events and delivery functions: the table, where notices go (SES from the stage's sender, or
 * `<DATA_DIR>/notices.jsonl` locally), the delivery queue, the URL policy, and EVENTS_TIME_SCALE (a
 * factor on every retry delay, so local tests need not wait hours; 1 in Lambda).
 */
const eventsConfig = () =>
  z
    .object({
      ...TableSettings,
      ...webhookUrlSettings(),
      /** The delivery function unseals webhook secrets: the same master key as the routes. */
      SIGNING_KEY_SECRET_ID: z.optional(nonEmpty()),
      SIGNING_KEY_FILE: z.optional(nonEmpty()),
      NOTICE_SENDER: z._default(z.enum(['aws', 'file']), 'aws'),
      SES_FROM_ADDRESS: z.optional(z.email()),
      SES_CONFIGURATION_SET: z.optional(nonEmpty()),
      DATA_DIR: z.optional(nonEmpty()),
      DELIVERY_QUEUE_URL: z.optional(z.url()),
      EVENTS_TIME_SCALE: z._default(z.coerce.number().check(z.positive(), z.maximum(1000)), 1),
    })
    .check(
      inLambdaOnlyDeployed(),
      z.superRefine((env, ctx) => {
        const issue = (path: string, message: string) =>
          ctx.addIssue({ code: 'custom', path: [path], message });
        if (env.NOTICE_SENDER === 'aws' && !env.SES_FROM_ADDRESS)
          issue('SES_FROM_ADDRESS', 'required when NOTICE_SENDER is aws');
        if (env.NOTICE_SENDER === 'file' && !env.DATA_DIR)
          issue('DATA_DIR', 'required when NOTICE_SENDER is file');
        if (env.AWS_LAMBDA_FUNCTION_NAME && env.NOTICE_SENDER === 'file')
          issue('NOTICE_SENDER', 'notices are never written to a file in Lambda');
        if (env.AWS_LAMBDA_FUNCTION_NAME && env.EVENTS_TIME_SCALE !== 1)
          issue('EVENTS_TIME_SCALE', 'must be 1 in Lambda');
      }),
    );

export type EventsConfig = z.output<ReturnType<typeof eventsConfig>>;

export function readEventsConfig(env: NodeJS.ProcessEnv = process.env): EventsConfig {
  return readEnv(eventsConfig(), env);
}
