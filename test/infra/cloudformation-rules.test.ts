import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CfnResource, CloudFormationValidatePlugin, Stack } from 'aws-cdk-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testApp } from '#test/helpers/cdk-app.ts';

/** cdk.json's context: its feature flags make a finding of CloudFormation's rules fail the synth. */
const context = JSON.parse(readFileSync('cdk.json', 'utf8')).context as Record<string, unknown>;

/** An app holding one queue with `properties`, synthesised as the stage tests synthesise. */
function queueApp(properties: Record<string, unknown>) {
  const app = testApp({ context });
  new CfnResource(new Stack(app, 'Rules'), 'Queue', { type: 'AWS::SQS::Queue', properties });
  return app;
}

describe('infra: CloudFormation’s rules in the tests’ synths (test/helpers/cdk-app.ts)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('fails a synth whose template breaks a rule, and again at its next synth', () => {
    const broken = { QueueName: `rules-${randomUUID()}`, NotAQueueProperty: 1 };
    expect(() => queueApp(broken).synth()).toThrow(/NotAQueueProperty/);
    expect(() => queueApp(broken).synth()).toThrow(/NotAQueueProperty/);
  });

  it('checks a template that passed once per run: a second synth of it does not run the rules again', () => {
    const checks = vi.spyOn(CloudFormationValidatePlugin.prototype, 'validate');
    const queue = { QueueName: `rules-${randomUUID()}` };
    queueApp(queue).synth();
    queueApp(queue).synth();
    expect(checks).toHaveBeenCalledTimes(1);
    queueApp({ QueueName: `rules-${randomUUID()}` }).synth();
    expect(checks).toHaveBeenCalledTimes(2);
  });
});
