/**
 * The CDK app. Configuration comes from CDK context (`-c key=value` or cdk.json), read here and only
 * here; every value has a default, so `npx cdk synth` works offline with none given.
 */
import { App, Validations } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { type FlightBookingConfig, FlightBookingStack } from './stack.ts';

/** Reads the stack configuration from context; throws on a malformed value, naming it. */
export function configFromContext(read: (key: string) => unknown): FlightBookingConfig {
  const text = (key: string): string | undefined => {
    const value = read(key);
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const number = (key: string, fallback?: number): number | undefined => {
    const value = text(key);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0)
      throw new Error(`context ${key} must be a non-negative number, got ${value}`);
    return parsed;
  };
  const retentionDays = number('logRetentionDays', 30);
  const logRetention = Object.values(RetentionDays).find((days) => days === retentionDays) as
    | RetentionDays
    | undefined;
  if (logRetention === undefined)
    throw new Error(`context logRetentionDays ${retentionDays} is not a CloudWatch Logs retention period`);
  return {
    stage: text('stage') ?? 'dev',
    sesFromAddress: text('sesFromAddress') ?? 'no-reply@example.com',
    sesConfigurationSet: text('sesConfigurationSet'),
    smsSenderId: text('smsSenderId'),
    smsMonthlySpendLimitUsd: number('smsMonthlySpendLimitUsd'),
    corsOrigins: (text('corsOrigins') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logRetention,
    alarmEmail: text('alarmEmail'),
    throttle: { ratePerSecond: number('throttleRate', 50) ?? 50, burst: number('throttleBurst', 100) ?? 100 },
    authRequestsPer5Minutes: number('authRequestsPer5Minutes', 100) ?? 100,
  };
}

if (import.meta.main) {
  const app = new App();
  const config = configFromContext((key) => app.node.tryGetContext(key));
  new FlightBookingStack(app, `FlightBooking-${config.stage}`, {
    description: `Flight booking API (${config.stage})`,
    config,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
}
