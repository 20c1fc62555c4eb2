import { readFileSync } from 'node:fs';
import { type App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { FlightBookingAccountStack } from '../../infra/account-stack.ts';
import { FlightBookingStack } from '../../infra/stack.ts';
import {
  type FlightBookingConfig,
  loadStageConfig,
  parseAccountConfig,
  parseStageConfig,
  type StageFile,
} from '../../infra/stage-config.ts';
import { testApp } from './cdk-app.ts';
import { fixtureConsoleBuild } from './console-build.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is read field by field
export type Json = Record<string, any>;

/** A complete production stage file: real-looking sender and mailboxes, every option set. */
export const PRODUCTION_FILE: StageFile = {
  supplier: { name: 'network' },
  sesFromAddress: 'no-reply@flights.acme-travel.co.uk',
  sesConfigurationSet: 'sign-in',
  sesNoticesConfigurationSet: 'notices',
  smsSenderId: 'FlightBook',
  corsOrigins: ['https://agents.acme-travel.co.uk'],
  logRetentionDays: 90,
  alarmEmail: 'ops@acme-travel.co.uk',
  throttle: { ratePerSecond: 50, burst: 100 },
  waf: {
    authRequestsPer5Minutes: 100,
    requestsPerAddressPer5Minutes: 2000,
    requestsPerSessionPer5Minutes: 1000,
    commonRuleSet: 'BLOCK',
  },
  blockedAddresses: [],
  agencyBounds: { allowedPhoneCountryCodes: ['44', '353'], codesPerHour: 200 },
  account: '210987654321',
  region: 'eu-west-2',
  abuseAlarms: {
    wrongCodesPer5Minutes: 20,
    rateLimitedPer5Minutes: 40,
    wafBlocksPer5Minutes: 200,
    codeSendsPerHour: 300,
  },
  dataProtection: {
    deletionProtection: true,
    retainOnDelete: true,
    pointInTimeRecovery: true,
    terminationProtection: true,
  },
};

/**
 * Copies of the stage files as first committed (`dev.json` with its example sender, `prod.json` not
 * yet filled in): the operator edits `infra/stages/`, and no test may depend on what they put there.
 */
export const STAGE_FIXTURES = 'test/infra/fixtures/stages';

export const PRODUCTION: FlightBookingConfig = parseStageConfig('prod', PRODUCTION_FILE);
export const DEVELOPMENT: FlightBookingConfig = loadStageConfig('dev', STAGE_FIXTURES);

export interface SynthesisedStage {
  readonly app: App;
  readonly stack: FlightBookingStack;
  readonly template: Template;
}

/**
 * Stacks already built in this test process, by configuration. The infra files share their worker
 * processes (vitest.config.ts), and building a stack is most of what they spend: each configuration
 * is built once per process, not once per call. Kept on globalThis so that every test file of the
 * process finds it, whichever copy of this module it imported.
 */
const shared = globalThis as { synthesisedStages?: Map<string, SynthesisedStage> };
shared.synthesisedStages ??= new Map();
const built = shared.synthesisedStages;

/**
 * Synthesises one stage's stack as `cdk synth` would (cdk.json's feature flags), without bundling,
 * serving a fixture console build unless given one; with `nag`, cdk-nag's packs run as validation plugins.
 * Without `nag` or a console build of its own, a configuration built before in this process is
 * returned as it was built; its template is frozen, so that no test can change what the next one reads.
 */
export function synthStage(
  config: FlightBookingConfig,
  nag = false,
  consoleBuild?: string,
): SynthesisedStage {
  if (nag || consoleBuild) return build(config, nag, consoleBuild ?? fixtureConsoleBuild());
  const key = JSON.stringify(config);
  let stage = built.get(key);
  if (!stage) {
    stage = build(config, false, fixtureConsoleBuild());
    deepFreeze(stage.template.toJSON());
    built.set(key, stage);
  }
  return stage;
}

function build(config: FlightBookingConfig, nag: boolean, consoleBuild: string): SynthesisedStage {
  const context = JSON.parse(readFileSync('cdk.json', 'utf8')).context as Record<string, unknown>;
  const app = testApp({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new FlightBookingStack(app, 'Test', { config, consoleBuild });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, stack, template: Template.fromStack(stack) };
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** The resources of one CloudFormation type, by logical id. */
export const resourcesOf = (template: Template, type: string): [string, Json][] =>
  Object.entries(template.findResources(type));

/** The statements of every policy attached to the role of the function `fn` (a Lambda resource). */
export function roleStatements(template: Template, fn: Json): Json[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

/** The account stack's template, with a complete account file. */
export function accountTemplate(): Template {
  const sms = {
    monthlySpendLimitUsd: 50,
    successSamplingPercent: 10,
    logRetentionDays: 90,
    alarmEmail: 'ops@acme-travel.co.uk',
  };
  return Template.fromStack(
    new FlightBookingAccountStack(testApp(), 'Account', { sms: parseAccountConfig({ sms }) }),
  );
}

/** Every method of the REST API: its resource's full path (the root is `/`), method and integration. */
export function apiMethods(template: Template): { path: string; method: string; integration: Json }[] {
  const all = template.findResources('AWS::ApiGateway::Resource');
  const pathOf = (id: string): string => {
    const resource = all[id];
    if (!resource) return '';
    const parent = resource.Properties.ParentId;
    return `${parent.Ref ? pathOf(parent.Ref) : ''}/${resource.Properties.PathPart}`;
  };
  return resourcesOf(template, 'AWS::ApiGateway::Method').map(([, m]) => ({
    path: m.Properties.ResourceId.Ref ? pathOf(m.Properties.ResourceId.Ref) : '/',
    method: m.Properties.HttpMethod,
    integration: m.Properties.Integration,
  }));
}
