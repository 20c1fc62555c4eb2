import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import { SMS_SENDER_ID_PATTERN, SMS_SENDER_ID_RULE } from '../shared/config.ts';
import { KNOWN_COUNTRY_CODES } from '../shared/phone-ranges.ts';
import type { AccountSmsConfig } from './account-stack.ts';
import { cidrProblem } from './cidr.ts';

/** Where each stage's configuration lives: `infra/stages/<stage>.json`, committed. */
const STAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'stages');

/** Everything the stack is told from outside: one stage's `infra/stages/<stage>.json`, validated. */
export interface FlightBookingConfig {
  /** Names the stack, the API stage and the alarms, so stages in one account do not collide. */
  readonly stage: string;
  /** Where flights come from: the built-in network, or Duffel with its token's secret (docs/API.md §4.5). */
  readonly supplier:
    | { readonly name: 'network' }
    | { readonly name: 'duffel'; readonly tokenSecretName: string; readonly sellsLive: boolean };
  /** Verified SES identity (address, or an address of a verified domain) codes are sent from. */
  readonly sesFromAddress: string;
  /** SES configuration set the stack creates for the codes' delivery events (bounces, complaints). */
  readonly sesConfigurationSet?: string;
  /** The traveller notices' SES configuration set (the events function sends through it). */
  readonly sesNoticesConfigurationSet?: string;
  /** SNS sender id for SMS, where the destination country supports one. */
  readonly smsSenderId?: string;
  /** Browser origins allowed to call the API; none means no CORS at all. */
  readonly corsOrigins: readonly string[];
  readonly logRetention: RetentionDays;
  /** Receives the alarms (a subscription to confirm); none means the topic only. */
  readonly alarmEmail?: string;
  /** Stage-wide API Gateway throttle. */
  readonly throttle: { readonly ratePerSecond: number; readonly burst: number };
  /**
   * API Gateway's per-method ("detailed") metrics: billed as custom metrics, a dozen per method, and
   * nothing in the stack reads them (the alarms and the dashboard read the API's own). Off unless set.
   */
  readonly apiMethodMetrics: boolean;
  /** WAF rate limits (requests per 5 minutes) and the common rule set's mode. */
  readonly waf: {
    readonly authRequestsPer5Minutes: number;
    readonly requestsPerAddressPer5Minutes: number;
    readonly requestsPerSessionPer5Minutes: number;
    readonly commonRuleSet: 'COUNT' | 'BLOCK';
  };
  /** CIDR ranges the firewall refuses before any other rule (validated: infra/cidr.ts). */
  readonly blockedAddresses: readonly string[];
  /** Thresholds of the abuse alarms (sign-in guessing, throttling, WAF blocks, code sends). */
  readonly abuseAlarms: {
    readonly wrongCodesPer5Minutes: number;
    readonly rateLimitedPer5Minutes: number;
    readonly wafBlocksPer5Minutes: number;
    readonly codeSendsPerHour: number;
  };
  /** What an agency may make the service send: phone countries, codes per agency per hour. */
  readonly agencyBounds: {
    readonly allowedPhoneCountryCodes: readonly string[];
    readonly codesPerHour: number;
  };
  /** What a deletion or a mistake may not take: set per stage, never inferred from its name. */
  readonly dataProtection: {
    readonly deletionProtection: boolean;
    readonly retainOnDelete: boolean;
    readonly pointInTimeRecovery: boolean;
    readonly terminationProtection: boolean;
  };
  /**
   * A domain of the operator's for the API and the console (both at its root), with an ACM certificate
   * for it in the stage's region; none means API Gateway's own address only.
   */
  readonly customDomain?: { readonly name: string; readonly certificateArn: string };
  /** The account and region the stage is pinned to (every stage but dev has them: parseStageConfig). */
  readonly environment?: { readonly account: string; readonly region: string };
}

/** Addresses and domains that only ever appear in examples: a real stage must not send from them. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const isExample = (address: string) => EXAMPLE_DOMAIN.test(address.slice(address.lastIndexOf('@') + 1));

const Email = z.email('must be a plain e-mail address (no display name)');
/** The origin exactly as a browser sends it (lower-case host, no default port, no path): CORS compares text. */
const asBrowsersSendIt = (origin: string) => {
  try {
    const url = new URL(origin);
    return url.origin === origin && url.port !== '0';
  } catch {
    return false; // not a URL at all, or a port over 65535
  }
};
const HttpsOrigin = z
  .string()
  .regex(/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, 'must be an https origin (https://host[:port], no path)')
  .refine(
    asBrowsersSendIt,
    'must be written as browsers send it: lower-case host, a port from 1 to 65535 and never :443',
  );
/** CloudWatch's retention periods, without 9999: the enum's "infinite", which means no retention at all. */
const retentionPeriods = new Set<number>(
  Object.values(RetentionDays).filter((v) => typeof v === 'number' && v !== RetentionDays.INFINITE),
);
const Retention = z
  .int()
  .refine(
    (days) => retentionPeriods.has(days),
    'must be a retention period CloudWatch Logs offers (1 to 3653 days; logs are never kept forever)',
  );
const SenderId = z.string().regex(SMS_SENDER_ID_PATTERN, SMS_SENDER_ID_RULE);
/** SES's rule for configuration set names. */
const ConfigurationSetName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, hyphens or underscores');
/** WAF's IP set entries: checked here so that a typo fails the synth, not the deploy. */
const Cidr = z.string().superRefine((cidr, ctx) => {
  const problem = cidrProblem(cidr);
  if (problem) ctx.addIssue({ code: 'custom', message: `${problem} (got "${cidr}")` });
});
const Positive = z.int().positive('must be greater than 0');
/** A DNS name as API Gateway takes it: lower-case labels, a dot-separated domain. */
const DomainName = z
  .string()
  .regex(
    /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a lower-case domain name such as agents.your-domain.example',
  );
/** An ACM certificate's ARN; its region and account are read from it (parseStageConfig). */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):certificate\/[0-9a-f-]{36}$/;
const CertificateArn = z
  .string()
  .regex(CERTIFICATE_ARN, 'must be an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>)');
const WafLimit = z.int().min(10, 'must be at least 10 (WAF’s minimum)');

/** Parses `raw` with `schema`, or throws one error for `file` naming every bad key. */
function parseFile<S extends z.ZodType>(file: string, schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`);
  throw new Error(`${file}: ${problems.join('; ')}`);
}

/**
 * Where the stage's flights come from (docs/API.md §4.5). Duffel's token is created by the operator in
 * Secrets Manager under `tokenSecretName`; `sellsLive` must be true for a `duffel_live_` token to be used
 * (real tickets from the operator's Duffel balance).
 */
const Supplier = z.discriminatedUnion('name', [
  z.strictObject({ name: z.literal('network') }),
  z.strictObject({
    name: z.literal('duffel'),
    tokenSecretName: z
      .string()
      .regex(
        /^[A-Za-z0-9/_+=.@-]{1,512}$/,
        'must be a Secrets Manager secret name (letters, digits, /_+=.@-)',
      ),
    sellsLive: z.boolean(),
  }),
]);

/** One stage's file. Every key is written out: nothing falls back to a silent default. */
const StageFile = z.strictObject({
  supplier: Supplier,
  sesFromAddress: Email.describe('Verified SES identity codes are sent from'),
  /** Created by the stack, with an event destination for bounces and complaints. */
  sesConfigurationSet: ConfigurationSetName.optional(),
  /** The traveller notices' own set (the events function's), so their bounces never pause sign-in's. */
  sesNoticesConfigurationSet: ConfigurationSetName.optional(),
  smsSenderId: SenderId.optional(),
  corsOrigins: z.array(HttpsOrigin),
  logRetentionDays: Retention,
  alarmEmail: Email.optional(),
  throttle: z.strictObject({
    ratePerSecond: z.number().positive('must be greater than 0'),
    burst: Positive,
  }),
  /** Per-method metrics, for an investigation: optional, off when absent (README, Cost). */
  apiMethodMetrics: z.boolean().optional(),
  waf: z.strictObject({
    /** Per client address on /api/auth/*: sign-in brute force and SMS pumping across identifiers. */
    authRequestsPer5Minutes: WafLimit,
    /** Per client address on every route: looser. */
    requestsPerAddressPer5Minutes: WafLimit,
    /** Per session (bearer token or session cookie): one client cannot spend every agency's share. */
    requestsPerSessionPer5Minutes: WafLimit,
    /** AWS's common rule set: COUNT (watch what it would block) until its findings are reviewed, then BLOCK. */
    commonRuleSet: z.enum(['COUNT', 'BLOCK']),
  }),
  /** Client addresses the firewall refuses outright (CIDR ranges): the runbook's answer to an abusive address. */
  blockedAddresses: z.array(Cidr).max(10_000, 'must list at most 10,000 ranges (a WAF IP set’s limit)'),
  /** What an agency may make the service send (docs/API.md §3.4). */
  agencyBounds: z.strictObject({
    /** Country calling codes agents' phone numbers may have: each one shared/phone-ranges.ts lists. */
    allowedPhoneCountryCodes: z
      .array(
        z.string().refine((code) => KNOWN_COUNTRY_CODES.includes(code), {
          message: `must be a country calling code among ${KNOWN_COUNTRY_CODES.join(', ')} (each needs its premium-rate ranges listed in shared/phone-ranges.ts)`,
        }),
      )
      .min(1, 'must allow at least one country')
      .refine((codes) => new Set(codes).size === codes.length, 'must not repeat a country code'),
    /** Codes one agency's agents may be sent in a clock hour; the AgencyCodeBudgetSpent alarm fires when spent. */
    codesPerHour: Positive.max(100_000, 'must be at most 100000'),
  }),
  /** Abuse alarms: how many per 5 minutes (per hour for sends) is a spike worth paging for. */
  abuseAlarms: z.strictObject({
    wrongCodesPer5Minutes: Positive,
    rateLimitedPer5Minutes: Positive,
    wafBlocksPer5Minutes: Positive,
    codeSendsPerHour: Positive,
  }),
  /** The API and the console at the root of the operator's domain (README, Deploy). */
  customDomain: z.strictObject({ name: DomainName, certificateArn: CertificateArn }).optional(),
  /**
   * Where the stage deploys: its AWS account and region. Required for every stage but dev, so a deploy
   * with another profile's credentials fails instead of creating a second copy somewhere else.
   */
  account: z
    .string()
    .regex(/^\d{12}$/, 'must be a 12-digit AWS account id')
    .optional(),
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-west-1')
    .optional(),
  dataProtection: z.strictObject({
    /** DynamoDB deletion protection on the table. */
    deletionProtection: z.boolean(),
    /** Keep the table and the signing key when the stack is deleted. */
    retainOnDelete: z.boolean(),
    pointInTimeRecovery: z.boolean(),
    /** CloudFormation termination protection on the stack. */
    terminationProtection: z.boolean(),
  }),
});
export type StageFile = z.input<typeof StageFile>;

/** Account ids that appear in documentation and placeholders, never a real stage's. */
const EXAMPLE_ACCOUNTS = new Set(['000000000000', '111111111111', '123456789012']);

/** Stages where example values are tolerated: the developer's own. */
const SANDBOX_STAGES = new Set(['dev']);

/**
 * Settings that contradict each other: a WAF limit above what the stage throttle allows in 5 minutes
 * (one client could spend all of it), one configuration set for sign-in and notices, a certificate of
 * another region or account.
 */
function checkConsistent(file: z.output<typeof StageFile>, ctx: z.RefinementCtx) {
  const capacity = Math.floor(file.throttle.ratePerSecond * 300);
  for (const key of [
    'authRequestsPer5Minutes',
    'requestsPerAddressPer5Minutes',
    'requestsPerSessionPer5Minutes',
  ] as const)
    if (file.waf[key] > capacity)
      ctx.addIssue({
        code: 'custom',
        path: ['waf', key],
        message: `is more than the stage throttle allows in 5 minutes (${capacity}): one client could spend it all`,
      });
  if (file.sesNoticesConfigurationSet && file.sesNoticesConfigurationSet === file.sesConfigurationSet)
    ctx.addIssue({
      code: 'custom',
      path: ['sesNoticesConfigurationSet'],
      message: 'must differ from sesConfigurationSet: traveller bounces would count against sign-in e-mails',
    });
  const [, certificateRegion, certificateAccount] =
    CERTIFICATE_ARN.exec(file.customDomain?.certificateArn ?? '') ?? [];
  // A regional endpoint takes a certificate of its own region and account only.
  if (certificateRegion && file.region && certificateRegion !== file.region)
    ctx.addIssue({
      code: 'custom',
      path: ['customDomain', 'certificateArn'],
      message: `is a certificate of ${certificateRegion}; the stage's API is in ${file.region} and needs one there`,
    });
  if (certificateAccount && file.account && certificateAccount !== file.account)
    ctx.addIssue({
      code: 'custom',
      path: ['customDomain', 'certificateArn'],
      message: 'is another account’s certificate',
    });
}

/** What any stage but the developer's own must have: its account and region, a real sender and alarm mailbox. */
function checkDeployable(stage: string, file: z.output<typeof StageFile>, ctx: z.RefinementCtx) {
  if (!file.account)
    ctx.addIssue({ code: 'custom', path: ['account'], message: `is required for stage ${stage}` });
  else if (EXAMPLE_ACCOUNTS.has(file.account))
    ctx.addIssue({
      code: 'custom',
      path: ['account'],
      message: 'is an example account; use the stage’s own',
    });
  if (!file.region)
    ctx.addIssue({ code: 'custom', path: ['region'], message: `is required for stage ${stage}` });
  if (isExample(file.sesFromAddress))
    ctx.addIssue({
      code: 'custom',
      path: ['sesFromAddress'],
      message: 'is an example address; use your verified sender',
    });
  if (!file.alarmEmail)
    ctx.addIssue({ code: 'custom', path: ['alarmEmail'], message: `is required for stage ${stage}` });
  else if (isExample(file.alarmEmail))
    ctx.addIssue({
      code: 'custom',
      path: ['alarmEmail'],
      message: 'is an example address; use a mailbox someone reads',
    });
}

/**
 * Validates a stage's configuration; throws one error naming every bad key. Any stage but `dev` must
 * send from a real address and have an alarm e-mail.
 */
export function parseStageConfig(stage: string, raw: unknown): FlightBookingConfig {
  const schema = StageFile.superRefine((file, ctx) => {
    checkConsistent(file, ctx);
    if (!SANDBOX_STAGES.has(stage)) checkDeployable(stage, file, ctx);
  });
  const file = parseFile(`infra/stages/${stage}.json`, schema, raw);
  return {
    stage,
    supplier: file.supplier,
    sesFromAddress: file.sesFromAddress,
    sesConfigurationSet: file.sesConfigurationSet,
    sesNoticesConfigurationSet: file.sesNoticesConfigurationSet,
    smsSenderId: file.smsSenderId,
    corsOrigins: file.corsOrigins,
    logRetention: file.logRetentionDays as RetentionDays,
    alarmEmail: file.alarmEmail,
    throttle: file.throttle,
    apiMethodMetrics: file.apiMethodMetrics ?? false,
    waf: file.waf,
    blockedAddresses: file.blockedAddresses,
    abuseAlarms: file.abuseAlarms,
    agencyBounds: file.agencyBounds,
    dataProtection: file.dataProtection,
    ...(file.customDomain && { customDomain: file.customDomain }),
    ...(file.account && file.region && { environment: { account: file.account, region: file.region } }),
  };
}

/** The account's one-off settings, `infra/account.json` (docs: README, Deploy). */
const AccountFile = z.strictObject({
  sms: z.strictObject({
    monthlySpendLimitUsd: z.number().positive('must be greater than 0'),
    senderId: SenderId.optional(),
    successSamplingPercent: z.int().min(0).max(100),
    logRetentionDays: Retention,
    alarmEmail: Email.refine((address) => !isExample(address), 'is an example address'),
  }),
});

/** Reads and validates the account's settings; throws naming every bad key. */
export function parseAccountConfig(raw: unknown): AccountSmsConfig {
  const { sms } = parseFile('infra/account.json', AccountFile, raw);
  return { ...sms, logRetention: sms.logRetentionDays as RetentionDays };
}

export const loadAccountConfig = (file = join(STAGES_DIR, '..', 'account.json')) =>
  parseAccountConfig(JSON.parse(readFileSync(file, 'utf8')));

/** The stages that have a file. */
const knownStages = (dir = STAGES_DIR) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => basename(name, '.json'))
    .sort();

/** Reads and validates `infra/stages/<stage>.json`; an unknown stage is refused, listing the known ones. */
export function loadStageConfig(stage: string, dir = STAGES_DIR): FlightBookingConfig {
  if (!/^[a-z][a-z0-9-]{0,20}$/.test(stage) || !knownStages(dir).includes(stage))
    throw new Error(
      `unknown stage "${stage}": add infra/stages/${stage}.json (known: ${knownStages(dir).join(', ')})`,
    );
  return parseStageConfig(stage, JSON.parse(readFileSync(join(dir, `${stage}.json`), 'utf8')));
}
