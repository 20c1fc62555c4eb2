import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes.ts';
import {
  DEVELOPMENT,
  type Json,
  PRODUCTION,
  PRODUCTION_FILE,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { FlightBookingAccountStack } from '../../infra/account-stack.ts';
import { parseAccountConfig, parseStageConfig } from '../../infra/stage-config.ts';

const accountTemplate = () => {
  const sms = {
    monthlySpendLimitUsd: 50,
    successSamplingPercent: 10,
    logRetentionDays: 90,
    alarmEmail: 'ops@acme-travel.co.uk',
  };
  const stack = new FlightBookingAccountStack(new App(), 'Account', { sms: parseAccountConfig({ sms }) });
  return Template.fromStack(stack);
};

const templates: [string, Template][] = [
  ['dev', synthStage(DEVELOPMENT).template],
  ['a complete prod', synthStage(PRODUCTION).template],
  ['the account stack', accountTemplate()],
];

/** A template value as AWS would render it, with example values for the pseudo parameters. */
function render(value: Json | string): string {
  if (typeof value === 'string') return value;
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': 'eu-west-1',
    'AWS::AccountId': '111122223333',
  };
  if (value.Ref && pseudo[value.Ref]) return pseudo[value.Ref] as string;
  if (value['Fn::Join']) return value['Fn::Join'][1].map(render).join(value['Fn::Join'][0]);
  return JSON.stringify(value);
}

const statementsOf = (document: Json): Json[] => [document.Statement].flat();
const actionsOf = (statement: Json): string[] => [statement.Action].flat();
const byCloudWatch = (statement: Json) =>
  statement.Effect === 'Allow' && statement.Principal?.Service === 'cloudwatch.amazonaws.com';

describe('infra: every alarm reaches its topic, and CloudWatch may publish there', () => {
  it.each(templates)(
    'walks every alarm and OK action → topic → topic policy → key policy (%s)',
    (_case, template) => {
      const all = template.toJSON().Resources as Record<string, Json>;
      const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm');
      expect(alarms.length).toBeGreaterThan(0);
      for (const [, { Properties: alarm }] of alarms) {
        const name = alarm.AlarmName as string;
        expect(alarm.OKActions, `${name} tells when it recovers`).toEqual(alarm.AlarmActions);
        expect(alarm.AlarmActions, name).toHaveLength(1);
        const topicId = alarm.AlarmActions[0].Ref as string;
        const topic = all[topicId];
        expect(topic?.Type, name).toBe('AWS::SNS::Topic');

        // The topic's policy: CloudWatch, this account, this very alarm.
        const policies = resourcesOf(template, 'AWS::SNS::TopicPolicy').filter(([, p]) =>
          p.Properties.Topics.some((t: Json) => t.Ref === topicId),
        );
        const publish = policies
          .flatMap(([, p]) => statementsOf(p.Properties.PolicyDocument))
          .find((s) => byCloudWatch(s) && actionsOf(s).includes('sns:Publish'));
        expect(publish, `${name}: CloudWatch may publish to its topic`).toBeDefined();
        expect(render(publish?.Resource)).toBe(render({ Ref: topicId }));
        expect(publish?.Condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
        expect(publish?.Condition.ArnLike['aws:SourceArn'].map(render)).toContain(
          `arn:aws:cloudwatch:eu-west-1:111122223333:alarm:${name}`,
        );

        // The topic's key: CloudWatch may use it, for this account only.
        const keyId = topic?.Properties.KmsMasterKeyId['Fn::GetAtt'][0] as string;
        const key = all[keyId];
        expect(key?.Type).toBe('AWS::KMS::Key');
        const use = statementsOf(key?.Properties.KeyPolicy).find(byCloudWatch);
        expect(actionsOf(use ?? {}).sort(), `${name}: CloudWatch may use the topic's key`).toEqual([
          'kms:Decrypt',
          'kms:GenerateDataKey*',
        ]);
        expect(use?.Condition).toEqual({ StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
      }
    },
  );

  it('lets no other stage’s alarm publish to a stage’s topic', () => {
    const [, prod] = templates[1] ?? [];
    const arns = resourcesOf(prod as Template, 'AWS::SNS::TopicPolicy')
      .flatMap(([, p]) => statementsOf(p.Properties.PolicyDocument))
      .filter(byCloudWatch)
      .flatMap((s) => s.Condition.ArnLike['aws:SourceArn'].map(render));
    expect(arns.length).toBe(resourcesOf(prod as Template, 'AWS::CloudWatch::Alarm').length);
    for (const arn of arns) expect(arn).toMatch(/:alarm:flight-booking-prod-[A-Za-z0-9-]+$/);
  });

  it('deletes the alarm topic’s key with a stage that keeps nothing, keeps it with one that keeps its data', () => {
    const keys = (template: Template) =>
      resourcesOf(template, 'AWS::KMS::Key').map(([, k]) => k.DeletionPolicy);
    expect(keys(synthStage(DEVELOPMENT).template)).toEqual(['Delete']);
    expect(keys(synthStage(PRODUCTION).template)).toEqual(['Retain']);
    expect(keys(accountTemplate())).toEqual(['Delete']);
  });
});

describe('infra: the SES configuration set the stage names is the stack’s own', () => {
  const committedProd = parseStageConfig('prod', {
    ...JSON.parse(readFileSync('test/infra/fixtures/stages/prod.json', 'utf8')),
    sesFromAddress: 'no-reply@flights.acme-travel.co.uk',
    alarmEmail: 'ops@acme-travel.co.uk',
  });
  const { template } = synthStage(committedProd);

  it('creates the set prod.json names, requiring TLS, with a CloudWatch destination for every delivery event', () => {
    expect(committedProd.sesConfigurationSet).toBe('flight-booking-sign-in');
    const [[setId, set] = ['', {}]] = resourcesOf(template, 'AWS::SES::ConfigurationSet');
    expect(set.Properties).toMatchObject({
      Name: 'flight-booking-sign-in',
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    const [[, destination] = ['', {}]] = resourcesOf(template, 'AWS::SES::ConfigurationSetEventDestination');
    expect(destination.Properties.ConfigurationSetName).toEqual({ Ref: setId });
    expect(destination.Properties.EventDestination).toMatchObject({
      Enabled: true,
      CloudWatchDestination: {
        DimensionConfigurations: [
          { DimensionName: 'Stage', DimensionValueSource: 'messageTag', DefaultDimensionValue: 'prod' },
        ],
      },
    });
    expect(destination.Properties.EventDestination.MatchingEventTypes).toEqual(
      expect.arrayContaining(['send', 'delivery', 'bounce', 'complaint', 'reject']),
    );
  });

  it('lets send-otp send through that set, and alarms on bounces and complaints from its events', () => {
    const policies = JSON.stringify(template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain(':configuration-set/flight-booking-sign-in');
    const alarm = (id: string) =>
      resourcesOf(template, 'AWS::CloudWatch::Alarm').find(
        ([, a]) => a.Properties.AlarmName === `flight-booking-prod-${id}`,
      )?.[1].Properties;
    expect(alarm('EmailComplaints')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Complaint',
      Dimensions: [{ Name: 'Stage', Value: 'prod' }],
      Threshold: 1,
    });
    const bounce = alarm('EmailBounceRate');
    expect(bounce?.Threshold).toBe(5);
    expect(JSON.stringify(bounce?.Metrics)).toContain('"MetricName":"Bounce"');
  });

  it('creates no set, and no e-mail alarm, for a stage that names none', () => {
    const dev = synthStage(DEVELOPMENT).template;
    dev.resourceCountIs('AWS::SES::ConfigurationSet', 0);
    expect(JSON.stringify(dev.findResources('AWS::CloudWatch::Alarm'))).not.toContain('Email');
    expect(parseStageConfig('prod', { ...PRODUCTION_FILE, sesConfigurationSet: undefined })).toMatchObject({
      sesConfigurationSet: undefined,
    });
  });
});

describe('infra: the dashboard shows the firewall and the abuse signals', () => {
  const body = JSON.stringify(
    resourcesOf(synthStage(PRODUCTION).template, 'AWS::CloudWatch::Dashboard')[0]?.[1].Properties
      .DashboardBody,
  );
  const acl = resourcesOf(synthStage(PRODUCTION).template, 'AWS::WAFv2::WebACL')[0]?.[1].Properties;

  it('graphs blocked requests for every firewall rule, and the common rule set’s counts', () => {
    for (const rule of acl.Rules as Json[])
      expect(body, rule.Name).toMatch(
        new RegExp(
          `AWS/WAFV2\\\\",\\\\"BlockedRequests\\\\",\\\\"Region\\\\",.*\\\\"Rule\\\\",\\\\"${rule.Name}\\\\"`,
        ),
      );
    expect(body).toContain('CountedRequests');
    expect(body).toContain('AllowedRequests');
  });

  it('graphs the sign-in signals the abuse alarms watch, and SES’s bounces and complaints', () => {
    for (const metric of [
      'CodeDeliveryFailures',
      'WrongCodes',
      'RateLimitedSends',
      'CodeSends',
      'AgencyCodeBudgetSpent',
      'Bounce',
      'Complaint',
    ])
      expect(body, metric).toContain(`\\"${metric}\\"`);
    expect(body).toContain('ConcurrentExecutions');
    for (const route of routes) expect(body).toContain(`Route${route.id.replaceAll('-', '')}`);
  });
});
