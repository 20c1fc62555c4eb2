import * as z from 'zod/mini';
import {
  ConfigError,
  commaList,
  numberIn,
  oneOf,
  optional,
  Problem,
  present,
  type Reader,
  readSettings,
  type Settings,
  url,
  withDefault,
} from './env-settings.ts';
import { KNOWN_COUNTRY_CODES } from './phone-ranges.ts';
import './zod-locale.ts';

export { ConfigError };

const nonEmpty = () => z.string().check(z.minLength(1));

const countryCodes: Reader<string[]> = (raw = KNOWN_COUNTRY_CODES.join(',')) => {
  const codes = raw.split(',').map((code) => code.trim());
  const unknown = codes.filter((code) => !KNOWN_COUNTRY_CODES.includes(code));
  if (unknown.length > 0 || new Set(codes).size !== codes.length)
    throw new Problem(
      `must be distinct country calling codes among ${KNOWN_COUNTRY_CODES.join(', ')} (got ${raw || 'none'})`,
    );
  return codes;
};

/**
 * Agency bounds (docs/API.md §3.4), deployed from the stage file: the country calling codes agents'
 * phone numbers may have (comma-separated, each one shared/phone-ranges.ts lists; default: all
 * of them, locally) and how many codes one agency's agents may be sent in an hour.
 */
interface AgencyBoundsConfig {
  readonly ALLOWED_PHONE_COUNTRY_CODES: string[];
  readonly AGENCY_CODES_PER_HOUR: number;
}
const agencyBoundsSettings: Settings<AgencyBoundsConfig> = {
  ALLOWED_PHONE_COUNTRY_CODES: countryCodes,
  AGENCY_CODES_PER_HOUR: withDefault(numberIn(1, 100_000, true), 100),
};

/** The agency bounds alone: the operator's CLI reads them without the rest of a function's settings. */
export const readAgencyBounds = (env: NodeJS.ProcessEnv = process.env): AgencyBoundsConfig =>
  readSettings(agencyBoundsSettings, env);

/** The events functions' table settings (zod: read by functions that build their schemas anyway). */
const tableSettings = () => ({
  TABLE_NAME: nonEmpty(),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  AWS_REGION: z._default(nonEmpty(), 'us-east-1'),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error']), 'info'),
  STAGE: z._default(nonEmpty(), 'local'),
});

/**
 * The one place the environment is read. Settings every function needs, read once per cold start. A missing or
 * malformed variable fails start-up with a message naming it; nothing has a silent production default
 * that could be wrong (there is no built-in key).
 */
export interface CoreConfig extends AgencyBoundsConfig {
  readonly TABLE_NAME: string;
  readonly DYNAMODB_ENDPOINT?: string | undefined; // DynamoDB Local's; unset in AWS
  readonly AWS_REGION: string; // set by Lambda; locally only DynamoDB Local's signing region
  readonly LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error';
  readonly STAGE: string; // set by the stack; on every log line and in the metrics made of them
  readonly SIGNING_KEY_SECRET_ID?: string | undefined; // deployed: the signing key's secret
  readonly SIGNING_KEY_FILE?: string | undefined; // locally: the file holding it
  readonly TOKEN_ISSUER: string;
  readonly TOKEN_AUDIENCE: string;
  /** send-otp answers no sooner than this, registered or not (no timing enumeration). */
  readonly OTP_SEND_MIN_MS: number;
  /** A new hold's life in minutes (from 0.05 = 3 s) instead of docs/API.md §4.4's: local and tests only. */
  readonly HOLD_MINUTES?: number | undefined;
  readonly AWS_LAMBDA_FUNCTION_NAME?: string | undefined; // set by Lambda: what marks a deployed function
  /** Comma-separated browser origins allowed by CORS; unset means no CORS headers at all. */
  readonly CORS_ALLOWED_ORIGINS: string[];
}

const coreSettings: Settings<CoreConfig> = {
  ...agencyBoundsSettings,
  TABLE_NAME: present,
  DYNAMODB_ENDPOINT: optional(url),
  AWS_REGION: withDefault(present, 'us-east-1'),
  LOG_LEVEL: withDefault(oneOf(['debug', 'info', 'warn', 'error'] as const), 'info'),
  STAGE: withDefault(present, 'local'),
  SIGNING_KEY_SECRET_ID: optional(present),
  SIGNING_KEY_FILE: optional(present),
  TOKEN_ISSUER: withDefault(present, 'flight-booking-api'),
  TOKEN_AUDIENCE: withDefault(present, 'flight-booking-agents'),
  OTP_SEND_MIN_MS: withDefault(numberIn(0, 5000, true), 350),
  HOLD_MINUTES: optional(numberIn(0.05, 1440, false)),
  AWS_LAMBDA_FUNCTION_NAME: (raw) => raw,
  CORS_ALLOWED_ORIGINS: (raw = '') => commaList(raw),
};

/** Rules over the whole: each names the variable it refuses and why, or passes. */
const coreRules = [
  ({ SIGNING_KEY_SECRET_ID: secret, SIGNING_KEY_FILE: file }: CoreConfig) =>
    Boolean(secret) === Boolean(file)
      ? ([
          'SIGNING_KEY_SECRET_ID',
          'set exactly one of SIGNING_KEY_SECRET_ID (deployed) or SIGNING_KEY_FILE (local)',
        ] as const)
      : undefined,
  ({ HOLD_MINUTES, AWS_LAMBDA_FUNCTION_NAME }: CoreConfig) =>
    HOLD_MINUTES !== undefined && AWS_LAMBDA_FUNCTION_NAME
      ? (['HOLD_MINUTES', 'is for local runs and tests only, never in a deployed function'] as const)
      : undefined,
];

/**
 * Parses `env` with `schema`, or throws a {@link ConfigError} naming each bad variable.
 *
 * @example readEnv(eventsConfig(), process.env)
 */
export function readEnv<S extends z.ZodMiniType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
}

export function readCoreConfig(env: NodeJS.ProcessEnv = process.env): CoreConfig {
  return readSettings(coreSettings, env, coreRules);
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
      ...tableSettings(),
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
