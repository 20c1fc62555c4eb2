/**
 * The CDK app: `cdk synth|deploy -c stage=<stage>` (default `dev`) deploys the stage whose
 * configuration is committed in `infra/stages/<stage>.json`, validated before anything is built.
 * `-c account=true` instead deploys the account's one-off settings from `infra/account.json` (the SMS
 * spend limit and delivery-status logging): never part of a stage's deploy. The environment and the
 * context are read here and only here.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { FlightBookingAccountStack } from './account-stack.ts';
import { FlightBookingStack } from './stack.ts';
import { loadAccountConfig, loadStageConfig } from './stage-config.ts';

/** Builds the stacks the context asks for: one stage, or the account's settings. */
export function buildApp(app: App): App {
  if (String(app.node.tryGetContext('account') ?? '') === 'true') {
    new FlightBookingAccountStack(app, 'FlightBooking-account', {
      description: 'Flight booking API: account-wide SMS settings',
      sms: loadAccountConfig(),
    });
  } else {
    const config = loadStageConfig(String(app.node.tryGetContext('stage') ?? 'dev'));
    new FlightBookingStack(app, `FlightBooking-${config.stage}`, {
      description: `Flight booking API (${config.stage})`,
      terminationProtection: config.dataProtection.terminationProtection,
      ...(config.environment && { env: config.environment }),
      config,
    });
  }
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return app;
}

if (import.meta.main) buildApp(new App());
