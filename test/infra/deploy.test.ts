import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { nagFindings } from '#test/helpers/cdk-nag.ts';
import {
  accountTemplate,
  DEVELOPMENT,
  type Json,
  PRODUCTION,
  PRODUCTION_FILE,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { parseStageConfig } from '../../infra/stage-config.ts';

const { template } = synthStage(PRODUCTION);

type Series = readonly (number | undefined)[];

/**
 * What an alarm reads, period by period, from its one metric's `series` (undefined: the period has
 * no data point, as an idle SQS queue publishes none), as CloudWatch computes it: a metric alarm reads
 * the points; a math alarm its returned expression, of which this knows the metric's id, `FILL(x, v)`
 * (v in each period without a point) and `DIFF(x)` (each point minus the point before it; none for a
 * first point).
 */
function alarmReads(alarm: Json, series: Series): Series {
  if (!alarm.Metrics) return series;
  const returned = (alarm.Metrics as Json[]).find((m) => m.ReturnData !== false && m.Expression);
  const evaluate = (expression: string): Series => {
    const fill = /^FILL\((.+), (\d+)\)$/.exec(expression);
    if (fill) return evaluate(fill[1] ?? '').map((v) => v ?? Number(fill[2]));
    const diff = /^DIFF\((.+)\)$/.exec(expression);
    if (!diff) return series; // the metric's id
    const points = evaluate(diff[1] ?? '');
    return points.map((v, i) => {
      const before = points.slice(0, i).findLast((p) => p !== undefined);
      return v === undefined || before === undefined ? undefined : v - before;
    });
  };
  return evaluate(returned?.Expression ?? '');
}

describe('infra: what a first deploy and on-call need', () => {
  it('outputs every name and address the README and the runbook procedures use', () => {
    const outputs = Object.keys(template.findOutputs('*'));
    for (const name of [
      'ApiUrl',
      'TableName',
      'SigningKeySecretArn',
      'StreamDeadLetterQueueArn',
      'StreamDeadLetterQueueUrl',
      'DeliveryDeadLetterQueueArn',
      'DeliveryDeadLetterQueueUrl',
      'DeliveryQueueUrl',
      'AlarmTopicArn',
      'WebAclArn',
      'DashboardName',
      'EventsFunctionName',
      'DeliveriesFunctionName',
      'SweepFunctionName',
      'SweepScheduleRuleName',
    ])
      expect(outputs, name).toContain(name);
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'flight-booking-prod' });
    const [[ruleId] = ['']] = resourcesOf(template, 'AWS::Events::Rule');
    expect(template.findOutputs('SweepScheduleRuleName').SweepScheduleRuleName?.Value).toEqual({
      Ref: ruleId,
    });
  });

  it('tags every taggable resource with the service and its stage', () => {
    const tagged = Object.entries(
      template.toJSON().Resources as Record<string, { Properties?: { Tags?: unknown } }>,
    )
      .map(([, r]) => r.Properties?.Tags)
      .filter((tags) => Array.isArray(tags));
    expect(tagged.length).toBeGreaterThan(50);
    for (const tags of tagged)
      expect(tags).toEqual(
        expect.arrayContaining([
          { Key: 'Service', Value: 'flight-booking' },
          { Key: 'Stage', Value: 'prod' },
        ]),
      );
  });

  it('pins every stage but dev to the account and region its file names', () => {
    expect(PRODUCTION.environment).toEqual({ account: '210987654321', region: 'eu-west-2' });
    const { account: _a, region: _r, ...unpinned } = PRODUCTION_FILE;
    expect(() => parseStageConfig('prod', unpinned)).toThrow(/account is required.*region is required/);
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, account: '123456789012' })).toThrow(
      /account is an example account/,
    );
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, region: 'Europe' })).toThrow(/region/);
    expect(DEVELOPMENT.environment).toBeUndefined();
  });

  it('invokes the events function for booking items and webhook pings only, and counts what its stream mapping reads', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FilterCriteria: {
        Filters: [
          ['BOOKING#', 'BOOKING'],
          ['EVENT#', 'PING'],
        ].map(([prefix, sk]) => ({
          Pattern: JSON.stringify({ dynamodb: { Keys: { pk: { S: [{ prefix }] }, sk: { S: [sk] } } } }),
        })),
      },
      MetricsConfig: { Metrics: ['EventCount'] },
    });
  });

  it('never retries the scheduled sweep and alarms when it stops running', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'flight-booking-prod-SweepStopped',
      MetricName: 'Invocations',
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
  });

  it('alarms on dead letters as they arrive, a delivery backlog and a stream mapping that stopped reading', () => {
    const alarm = (id: string) =>
      resourcesOf(template, 'AWS::CloudWatch::Alarm').find(
        ([, a]) => a.Properties.AlarmName === `flight-booking-prod-${id}`,
      )?.[1].Properties;
    // A queue idle for hours publishes nothing, then the first dead letter: one point. The period after,
    // no new one: the stream queue's sends are 0, the delivery queue's visible count is still 1.
    for (const [id, quietThenOne, nextPeriod] of [
      ['EventsDeadLetters', [undefined, undefined, undefined, 1], 0],
      ['DeliveryDeadLetters', [undefined, undefined, undefined, 1], 1],
    ] as const) {
      const props = alarm(id) ?? {};
      expect(props).toMatchObject({
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Threshold: 1,
        TreatMissingData: 'notBreaching',
      });
      expect(alarmReads(props, quietThenOne).at(-1), id).toBe(1);
      expect(alarmReads(props, [...quietThenOne, nextPeriod]).at(-1), id).toBe(0);
    }
    // Read by the stream's sends: an operator reading a dead letter (it becomes visible again) is no arrival.
    const [stream] = alarm('EventsDeadLetters')?.Metrics ?? [];
    expect(stream.MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/SQS', MetricName: 'NumberOfMessagesSent' },
      Stat: 'Sum',
    });
    expect(alarm('DeliveryBacklog')).toMatchObject({
      MetricName: 'ApproximateAgeOfOldestMessage',
      Threshold: 1800,
    });
    expect(JSON.stringify(alarm('EventsStreamStopped')?.Metrics)).toMatch(
      /PolledEventCount.*ConsumedWriteCapacityUnits|ConsumedWriteCapacityUnits.*PolledEventCount/,
    );
  });

  it('gives the docs function errors and throttles alarms like every route', () => {
    for (const id of ['openapi-Errors', 'openapi-Throttles'])
      template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `flight-booking-prod-${id}` });
  });

  it('keeps the access logs as long as the execution logs, and both on delete', () => {
    const logs = resourcesOf(template, 'AWS::Logs::LogGroup').filter(([id]) =>
      /^Api(Access|Execution)Logs/.test(id),
    );
    expect(logs).toHaveLength(2);
    for (const [, group] of logs)
      expect(group).toMatchObject({
        DeletionPolicy: 'RetainExceptOnCreate',
        Properties: { RetentionInDays: 90 },
      });
  });

  it('lets SNS assume the SMS delivery-status role only for this account', () => {
    const account = accountTemplate();
    account.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: Match.objectLike({
        Statement: [
          Match.objectLike({
            Principal: { Service: 'sns.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ],
      }),
    });
  });
});

describe('infra: reserved concurrency', () => {
  it('reserves none for any function, as docs/decisions.md reasons for the event functions and the sweep', () => {
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(3);
    expect(functions.filter(([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined)).toEqual([]);
    const decisions = readFileSync('docs/decisions.md', 'utf8');
    expect(decisions).toContain('*Reserved concurrency: none, for the event functions and the sweep alike.*');
    expect(readFileSync('docs/runbook.md', 'utf8')).toContain('docs/decisions.md (*Reserved concurrency*)');
  });
});

describe('infra: an optional custom domain for the API and the console', () => {
  const CERTIFICATE = 'arn:aws:acm:eu-west-2:210987654321:certificate/0f6b8f3e-4b5a-4c1d-9e2f-3a4b5c6d7e8f';
  const customDomain = { name: 'agents.acme-travel.co.uk', certificateArn: CERTIFICATE };
  const withDomain = synthStage(parseStageConfig('prod', { ...PRODUCTION_FILE, customDomain }), true);

  it('maps the domain’s root to the stage, on TLS 1.2 with the stage file’s certificate, and outputs its DNS target', () => {
    const domain = withDomain.template;
    domain.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'agents.acme-travel.co.uk',
      RegionalCertificateArn: CERTIFICATE,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    const [[, mapping] = ['', {} as Json]] = resourcesOf(domain, 'AWS::ApiGateway::BasePathMapping');
    expect(mapping.Properties.BasePath).toBeUndefined();
    expect(mapping.Properties.Stage).toEqual({ Ref: expect.stringMatching(/^ApiDeploymentStage/) });
    const outputs = domain.findOutputs('*');
    expect(outputs.CustomDomainUrl?.Value).toBe('https://agents.acme-travel.co.uk/');
    expect(JSON.stringify(outputs.CustomDomainTarget?.Value)).toContain('RegionalDomainName');
    expect(JSON.stringify(outputs.CustomDomainHostedZoneId?.Value)).toContain('RegionalHostedZoneId');
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    expect(template.findOutputs('CustomDomainUrl')).toEqual({});
  });

  it('passes cdk-nag with the domain', () => {
    expect(nagFindings(withDomain.app)).toBe('');
  });

  it('refuses a certificate of another region or account, and a name that is no domain', () => {
    const refused = (change: Json) => () =>
      parseStageConfig('prod', { ...PRODUCTION_FILE, customDomain: { ...customDomain, ...change } });
    expect(refused({ certificateArn: CERTIFICATE.replace('eu-west-2', 'us-east-1') })).toThrow(
      /customDomain\.certificateArn is a certificate of us-east-1; the stage's API is in eu-west-2/,
    );
    expect(refused({ certificateArn: CERTIFICATE.replace('210987654321', '345678901234') })).toThrow(
      /customDomain\.certificateArn is another account’s certificate/,
    );
    expect(refused({ name: 'https://agents.acme-travel.co.uk' })).toThrow(/customDomain\.name/);
    expect(refused({ name: 'Agents.Acme-Travel.co.uk' })).toThrow(/customDomain\.name/);
    expect(refused({ certificateArn: 'arn:aws:iam::210987654321:server-certificate/x' })).toThrow(
      /customDomain\.certificateArn must be an ACM certificate ARN/,
    );
  });
});
