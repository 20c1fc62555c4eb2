import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { testApp } from '#test/helpers/cdk-app.ts';
import { nagFindings } from '#test/helpers/cdk-nag.ts';
import { fixtureConsoleBuild } from '#test/helpers/console-build.ts';
import { FlightBookingAccountStack } from '../../infra/account-stack.ts';
import { buildApp } from '../../infra/app.ts';
import { parseAccountConfig } from '../../infra/stage-config.ts';

const SMS = {
  monthlySpendLimitUsd: 50,
  senderId: 'FlightBook',
  successSamplingPercent: 10,
  logRetentionDays: 90,
  alarmEmail: 'ops@acme-travel.co.uk',
};

function synthAccount(nag = false) {
  const app = testApp();
  const stack = new FlightBookingAccountStack(app, 'Account', { sms: parseAccountConfig({ sms: SMS }) });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, template: Template.fromStack(stack) };
}

const stackNames = (context: Record<string, string>) => {
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  return buildApp(app, fixtureConsoleBuild())
    .node.children.map((child) => child.node.id)
    .filter((id) => id.startsWith('FlightBooking-'));
};

describe('infra: account-wide SMS settings, apart from every stage', () => {
  it('deploys a stage without them, and them only when asked for (-c account=true)', () => {
    expect(stackNames({})).toEqual(['FlightBooking-dev']);
    // The committed account.json keeps an example alarm mailbox until the operator sets theirs.
    expect(() => stackNames({ account: 'true' })).toThrow(
      /infra\/account\.json: sms\.alarmEmail is an example address/,
    );
  });

  it('sets the spend limit, transactional SMS and delivery-status logging through a role SNS assumes', () => {
    const { template } = synthAccount();
    const settings = JSON.stringify(
      Object.values(template.findResources('Custom::AWS'))[0]?.Properties.Create ?? '',
    );
    const update = JSON.stringify(
      Object.values(template.findResources('Custom::AWS'))[0]?.Properties.Update ?? '',
    );

    for (const text of [
      'setSMSAttributes',
      'MonthlySpendLimit',
      '50',
      'Transactional',
      'DeliveryStatusIAMRole',
      'DefaultSenderID',
    ])
      expect(`${settings}${update}`).toContain(text);
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [Match.objectLike({ Principal: { Service: 'sns.amazonaws.com' } })],
      }),
    });
  });

  it('keeps SMS delivery failures for the configured time and alarms on the first one', () => {
    const { template } = synthAccount();

    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: Match.objectLike({ 'Fn::Join': Match.anyValue() }),
      RetentionInDays: 90,
    });
    expect(JSON.stringify(template.toJSON())).toContain('/DirectPublishToPhoneNumber/Failure');
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      MetricTransformations: [Match.objectLike({ MetricName: 'SmsDeliveryFailures' })],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'SmsDeliveryFailures',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme-travel.co.uk',
    });
    for (const [, group] of Object.entries(template.findResources('AWS::Logs::LogGroup')))
      expect(group.Properties.RetentionInDays).toBe(90);
  });

  it('refuses a spend limit of 0, a sampling rate over 100 and a sender id of 12 characters, naming them', () => {
    expect(() =>
      parseAccountConfig({
        sms: { ...SMS, monthlySpendLimitUsd: 0, successSamplingPercent: 101, senderId: 'FlightBookin' },
      }),
    ).toThrow(/sms\.monthlySpendLimitUsd .*; sms\.senderId .*; sms\.successSamplingPercent/);
  });

  it('finds nothing unacknowledged in cdk-nag', () => {
    const { app } = synthAccount(true);
    expect(nagFindings(app)).toBe('');
  });
});
