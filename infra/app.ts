/**
 * The CDK app. Configuration comes from CDK context (`-c key=value` or cdk.json) and is read here
 * only; every value has a default so `npx cdk synth` works offline with none given.
 */
import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { FlightBookingStack } from './stack.ts';

const app = new App();
const context = (key: string): string | undefined => {
  const value = app.node.tryGetContext(key);
  return value === undefined || value === '' ? undefined : String(value);
};

const stage = context('stage') ?? 'dev';
const retentionDays = Number(context('logRetentionDays') ?? 30);
const retention = Object.values(RetentionDays).find((days) => days === retentionDays);
if (retention === undefined)
  throw new Error(`logRetentionDays ${retentionDays} is not a CloudWatch Logs retention period`);

new FlightBookingStack(app, `FlightBooking-${stage}`, {
  description: `Flight booking API (${stage})`,
  config: {
    stage,
    sesFromAddress: context('sesFromAddress') ?? 'no-reply@example.com',
    smsSenderId: context('smsSenderId'),
    logRetention: retention as RetentionDays,
  },
});
