/**
 * The CDK app: `cdk synth|deploy -c stage=<stage>` (default `dev`) deploys the stage whose
 * configuration is committed in `infra/stages/<stage>.json`, validated before anything is built. The
 * environment is read here and only here.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { FlightBookingStack } from './stack.ts';
import { loadStageConfig } from './stage-config.ts';

if (import.meta.main) {
  const app = new App();
  const config = loadStageConfig(String(app.node.tryGetContext('stage') ?? 'dev'));
  new FlightBookingStack(app, `FlightBooking-${config.stage}`, {
    description: `Flight booking API (${config.stage})`,
    terminationProtection: config.dataProtection.terminationProtection,
    config,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
}
