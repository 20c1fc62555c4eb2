import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { testApp } from '#test/helpers/cdk-app.ts';
import { nagFindings } from '#test/helpers/cdk-nag.ts';
import { fixtureConsoleBuild } from '#test/helpers/console-build.ts';
import { type Json, PRODUCTION_FILE } from '#test/helpers/stage-files.ts';
import { buildApp } from '../../infra/app.ts';

/**
 * The app as `npx cdk synth -c stage=prod` runs it (infra/app.ts: the context, the stage file, the
 * stack's environment, cdk-nag's packs), for a prod.json filled in as the README says: its own account
 * and region, a verified sender, an alarm mailbox. Bundling is skipped, as `cdk synth` skips it for
 * no stack but the one it deploys (synth.test.ts bundles).
 */
function filledInProd(file = PRODUCTION_FILE): App {
  const stages = mkdtempSync(join(tmpdir(), 'stages-'));
  writeFileSync(join(stages, 'prod.json'), JSON.stringify(file));
  const context = JSON.parse(readFileSync('cdk.json', 'utf8')).context as Record<string, unknown>;
  const app = testApp({ context: { ...context, stage: 'prod', 'aws:cdk:bundling-stacks': [] } });
  return buildApp(app, fixtureConsoleBuild(), stages);
}

/**
 * One app with every optional setting the README offers, in another account and region than
 * PRODUCTION_FILE's (so a value taken from the wrong place shows), shared by the tests that read it:
 * built by whichever asks first. A synth with cdk-nag's packs is the app's one synth; its template is
 * read from that synth's assembly.
 */
let everything: { app: App; template: Json } | undefined;
function everythingFilledIn() {
  if (!everything) {
    const region = 'ap-southeast-2';
    const account = '345678901234';
    const app = filledInProd({
      ...PRODUCTION_FILE,
      account,
      region,
      apiMethodMetrics: true,
      customDomain: {
        name: 'agents.acme-travel.co.uk',
        certificateArn: `arn:aws:acm:${region}:${account}:certificate/0f6b8f3e-4b5a-4c1d-9e2f-3a4b5c6d7e8f`,
      },
    });
    const findings = nagFindings(app);
    expect(findings).toBe('');
    const stack = app.node.findChild('FlightBooking-prod') as Stack;
    const template = app.synth().getStackByName(stack.stackName).template as Json;
    everything = { app, template };
  }
  return everything;
}

describe('infra: the app for a filled-in prod stage', () => {
  it('pins the stack to the file’s account and region and finds nothing unacknowledged in cdk-nag', () => {
    const app = filledInProd();
    const stack = app.node.findChild('FlightBooking-prod') as Stack;
    expect([stack.account, stack.region]).toEqual([PRODUCTION_FILE.account, PRODUCTION_FILE.region]);
    expect(nagFindings(app)).toBe('');
  });

  it('synthesises with every optional setting the README offers filled in too, nothing open in cdk-nag', () => {
    const { app, template } = everythingFilledIn();
    const stack = app.node.findChild('FlightBooking-prod') as Stack;
    expect([stack.account, stack.region]).toEqual(['345678901234', 'ap-southeast-2']);
    Template.fromJSON(template).resourceCountIs('AWS::ApiGateway::DomainName', 1);
  });

  it('grants SES sending on the pinned region’s and account’s identities', () => {
    const { template } = everythingFilledIn();
    const statements = Object.values(Template.fromJSON(template).findResources('AWS::IAM::Policy')).flatMap(
      (policy: Json) => policy.Properties.PolicyDocument.Statement as Json[],
    );
    const ses = statements.filter((s) => s.Action === 'ses:SendEmail');
    expect(ses.length).toBeGreaterThan(1);
    for (const statement of ses)
      expect(JSON.stringify(statement.Resource)).toContain(':ses:ap-southeast-2:345678901234:identity/*');
  });
});
