/**
 * The CDK app: `cdk synth|deploy -c stage=<stage>` (default `dev`) deploys the stage whose
 * configuration is committed in `infra/stages/<stage>.json`, validated before anything is built.
 * `-c account=true` instead deploys the account's one-off settings from `infra/account.json` (the SMS
 * spend limit and delivery-status logging): never part of a stage's deploy. The environment and the
 * context are read here and only here.
 */
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { FlightBookingAccountStack } from './account-stack.ts';
import { folderHash } from './bundling.ts';
import { FlightBookingStack } from './stack.ts';
import { loadAccountConfig, loadStageConfig } from './stage-config.ts';
import { buildConsole } from './web/build.ts';

/**
 * Builds the stacks the context asks for: one stage, serving the console built in `consoleBuild`, or
 * the account's settings. `stagesDir` holds the stage files (`infra/stages`; tests give fixtures).
 */
export function buildApp(app: App, consoleBuild: string, stagesDir?: string): App {
  if (String(app.node.tryGetContext('account') ?? '') === 'true') {
    new FlightBookingAccountStack(app, 'FlightBooking-account', {
      description: 'Flight booking API: account-wide SMS settings',
      sms: loadAccountConfig(),
    });
  } else {
    const config = loadStageConfig(String(app.node.tryGetContext('stage') ?? 'dev'), stagesDir);
    new FlightBookingStack(app, `FlightBooking-${config.stage}`, {
      description: `Flight booking API (${config.stage})`,
      terminationProtection: config.dataProtection.terminationProtection,
      ...(config.environment && { env: config.environment }),
      config,
      consoleBuild,
    });
  }
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return app;
}

/**
 * The console, built on every synth (esbuild takes well under a second) into `cdk.out/console/<hash of
 * its files>`: a place in the repository that depends on nothing but the files, so the function's asset
 * hash does not either (infra/route-function.ts), and two synths at once never write one folder.
 */
async function buildConsoleForSynth(): Promise<string> {
  const builds = join(import.meta.dirname, '..', 'cdk.out', 'console');
  await mkdir(builds, { recursive: true });
  const scratch = await mkdtemp(join(builds, 'build-'));
  await buildConsole(scratch);
  const dir = join(builds, folderHash(scratch));
  // Already there: the same files, from an earlier or a concurrent synth.
  await rename(scratch, dir).catch(() => rm(scratch, { recursive: true, force: true }));
  return dir;
}

if (import.meta.main) buildApp(new App(), await buildConsoleForSynth());
