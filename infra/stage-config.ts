import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';
import type { AccountSmsConfig } from './account-stack.ts';
import type { FlightBookingConfig } from './stack.ts';

/** Where each stage's configuration lives: `infra/stages/<stage>.json`, committed. */
export const STAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'stages');

/** Addresses and domains that only ever appear in examples: a real stage must not send from them. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

const Email = z.email('must be a plain e-mail address (no display name)');
const HttpsOrigin = z
  .string()
  .regex(/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i, 'must be an https origin (https://host[:port], no path)');
const retentionPeriods = new Set<number>(Object.values(RetentionDays).filter((v) => typeof v === 'number'));

/** One stage's file. Every key is written out: nothing falls back to a silent default. */
const StageFile = z.strictObject({
  sesFromAddress: Email.describe('Verified SES identity codes are sent from'),
  sesConfigurationSet: z.string().min(1).optional(),
  smsSenderId: z
    .string()
    .regex(/^[A-Za-z0-9]{3,11}$/, 'must be 3-11 letters or digits')
    .optional(),
  corsOrigins: z.array(HttpsOrigin),
  logRetentionDays: z
    .int()
    .refine((days) => retentionPeriods.has(days), 'must be a retention period CloudWatch Logs offers'),
  alarmEmail: Email.optional(),
  throttle: z.strictObject({
    ratePerSecond: z.number().positive('must be greater than 0'),
    burst: z.int().positive('must be greater than 0'),
  }),
  waf: z.strictObject({
    /** Per client address on /api/auth/*: sign-in brute force and SMS pumping across identifiers. */
    authRequestsPer5Minutes: z.int().min(10, 'must be at least 10 (WAF’s minimum)'),
    /** Per client address on every route: looser. */
    requestsPerAddressPer5Minutes: z.int().min(10, 'must be at least 10 (WAF’s minimum)'),
    /** Per session (bearer token or session cookie): one client cannot spend every agency's share. */
    requestsPerSessionPer5Minutes: z.int().min(10, 'must be at least 10 (WAF’s minimum)'),
    /** AWS's common rule set: COUNT (watch what it would block) until its findings are reviewed, then BLOCK. */
    commonRuleSet: z.enum(['COUNT', 'BLOCK']),
  }),
  /** Abuse alarms: how many per 5 minutes (per hour for sends) is a spike worth paging for. */
  abuseAlarms: z.strictObject({
    wrongCodesPer5Minutes: z.int().positive('must be greater than 0'),
    rateLimitedPer5Minutes: z.int().positive('must be greater than 0'),
    wafBlocksPer5Minutes: z.int().positive('must be greater than 0'),
    codeSendsPerHour: z.int().positive('must be greater than 0'),
  }),
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

/** Stages where example values are tolerated: the developer's own. */
const SANDBOX_STAGES = new Set(['dev']);

/**
 * Validates a stage's configuration; throws one error naming every bad key. Any stage but `dev` must
 * send from a real address and have an alarm e-mail.
 */
export function parseStageConfig(stage: string, raw: unknown): FlightBookingConfig {
  const parsed = StageFile.superRefine((file, ctx) => {
    if (SANDBOX_STAGES.has(stage)) return;
    if (EXAMPLE_DOMAIN.test(domainOf(file.sesFromAddress)))
      ctx.addIssue({
        code: 'custom',
        path: ['sesFromAddress'],
        message: 'is an example address; use your verified sender',
      });
    if (!file.alarmEmail)
      ctx.addIssue({ code: 'custom', path: ['alarmEmail'], message: `is required for stage ${stage}` });
    else if (EXAMPLE_DOMAIN.test(domainOf(file.alarmEmail)))
      ctx.addIssue({
        code: 'custom',
        path: ['alarmEmail'],
        message: 'is an example address; use a mailbox someone reads',
      });
  }).safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`,
    );
    throw new Error(`infra/stages/${stage}.json: ${problems.join('; ')}`);
  }
  const file = parsed.data;
  return {
    stage,
    sesFromAddress: file.sesFromAddress,
    sesConfigurationSet: file.sesConfigurationSet,
    smsSenderId: file.smsSenderId,
    corsOrigins: file.corsOrigins,
    logRetention: file.logRetentionDays as RetentionDays,
    alarmEmail: file.alarmEmail,
    throttle: file.throttle,
    waf: file.waf,
    abuseAlarms: file.abuseAlarms,
    dataProtection: file.dataProtection,
  };
}

/** The account's one-off settings, `infra/account.json` (docs: README, Deploy). */
const AccountFile = z.strictObject({
  sms: z.strictObject({
    monthlySpendLimitUsd: z.number().positive('must be greater than 0'),
    senderId: z
      .string()
      .regex(/^[A-Za-z0-9]{3,11}$/, 'must be 3-11 letters or digits')
      .optional(),
    successSamplingPercent: z.int().min(0).max(100),
    logRetentionDays: z
      .int()
      .refine((days) => retentionPeriods.has(days), 'must be a retention period CloudWatch Logs offers'),
    alarmEmail: Email.refine((address) => !EXAMPLE_DOMAIN.test(domainOf(address)), 'is an example address'),
  }),
});

/** Reads and validates the account's settings; throws naming every bad key. */
export function parseAccountConfig(raw: unknown): AccountSmsConfig {
  const parsed = AccountFile.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`,
    );
    throw new Error(`infra/account.json: ${problems.join('; ')}`);
  }
  const { sms } = parsed.data;
  return { ...sms, logRetention: sms.logRetentionDays as RetentionDays };
}

export const loadAccountConfig = (file = join(STAGES_DIR, '..', 'account.json')) =>
  parseAccountConfig(JSON.parse(readFileSync(file, 'utf8')));

/** The stages that have a file. */
export const knownStages = (dir = STAGES_DIR) =>
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
