import { describe, expect, it } from 'vitest';
import { functionSettings, iamTableAction } from '#shared/function-spec.ts';
import { eventFunctions } from '#shared/routes.ts';
import {
  DEVELOPMENT,
  type Json,
  PRODUCTION,
  resourcesOf,
  roleStatements,
  synthStage,
} from '#test/helpers/stage-files.ts';

const { template } = synthStage(DEVELOPMENT);
const resources = (type: string) => resourcesOf(template, type);

function functionOf(id: string): [string, Json] {
  const found = resources('AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Description === `${id} (flight booking)`,
  );
  if (!found) throw new Error(`no function ${id}`);
  return found;
}
const statementsOf = (id: string, t = template) => roleStatements(t, functionOf(id)[1]);
const allowed = (id: string) =>
  new Set(
    statementsOf(id)
      .filter((s) => s.Effect === 'Allow')
      .flatMap((s) => [s.Action].flat()),
  );
const mappingOf = (id: string) =>
  resources('AWS::Lambda::EventSourceMapping').find(
    ([, m]) => m.Properties.FunctionName.Ref === functionOf(id)[0],
  )?.[1].Properties;
const queueId = (name: string) => {
  const found = resources('AWS::SQS::Queue').find(([logicalId]) => logicalId.includes(name));
  if (!found) throw new Error(`no queue ${name}`);
  return found;
};

describe('infra: events', () => {
  it('turns the table stream on with both images', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('feeds the events function from the stream: partial failures, bisection, a retry limit, a dead-letter queue', () => {
    const [streamDlq] = queueId('StreamDeadLetters');
    expect(mappingOf('events')).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      ParallelizationFactor: 1,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [streamDlq, 'Arn'] } } },
    });
  });

  it('feeds the delivery function from the delivery queue, whose messages end in a dead-letter queue', () => {
    const [deliveryQueueId, deliveryQueue] = queueId('DeliveryQueue');
    const [dlq] = queueId('DeliveryDeadLetters');
    expect(mappingOf('deliveries')).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [deliveryQueueId, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(deliveryQueue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
      maxReceiveCount: 5,
    });
    const deliveries = eventFunctions.find((f) => f.id === 'deliveries');
    expect(deliveryQueue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
      6 * functionSettings(deliveries ?? eventFunctions[0]).timeoutSeconds,
    );
    for (const [, queue] of resources('AWS::SQS::Queue'))
      expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('grants the events function its table actions, the stream, SES from the sender only and the queue', () => {
    const events = eventFunctions.find((f) => f.id === 'events');
    expect(allowed('events')).toEqual(
      new Set([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'xray:PutTraceSegments',
        'xray:PutTelemetryRecords',
        ...(events?.table ?? []).map(iamTableAction),
        'dynamodb:ListStreams',
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'ses:SendEmail',
        'sqs:SendMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
      ]),
    );
    const ses = statementsOf('events').find((s) => s.Action === 'ses:SendEmail');
    expect(ses?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': DEVELOPMENT.sesFromAddress } });
    const full = synthStage(PRODUCTION).template;
    const prodSes = statementsOf('events', full).find((s) => s.Action === 'ses:SendEmail');
    expect(prodSes?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': PRODUCTION.sesFromAddress } });
    expect(JSON.stringify(prodSes?.Resource)).toContain(':configuration-set/notices');
    expect(JSON.stringify(prodSes?.Resource)).not.toContain(':configuration-set/sign-in');
  });

  it('grants the events function its Query on the table alone, not the index', () => {
    const query = statementsOf('events').find((s) => [s.Action].flat().includes('dynamodb:Query'));
    expect(JSON.stringify(query?.Resource)).not.toContain('/index/');
  });

  it('grants the delivery function the key, its table actions and the queue: no e-mail', () => {
    const actions = allowed('deliveries');
    expect(actions.has('ses:SendEmail')).toBe(false);
    expect(actions.has('secretsmanager:GetSecretValue')).toBe(true);
    expect(actions.has('dynamodb:UpdateItem')).toBe(true);
    expect(actions.has('dynamodb:PutItem')).toBe(false);
    for (const action of ['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage'])
      expect(actions.has(action), action).toBe(true);
    expect([...actions].filter((a) => a.includes('*'))).toEqual([]);
  });

  it('configures both functions for AWS: SES notices, the queue, retry delays unscaled', () => {
    for (const { id } of eventFunctions) {
      const env = functionOf(id)[1].Properties.Environment.Variables;
      expect(env).toMatchObject({ NOTICE_SENDER: 'aws', SES_FROM_ADDRESS: DEVELOPMENT.sesFromAddress });
      expect(env.DELIVERY_QUEUE_URL).toBeDefined();
      expect(Object.keys(env)).not.toContain('EVENTS_TIME_SCALE');
      expect(Object.keys(env)).not.toContain('WEBHOOK_URL_POLICY');
    }
  });

  it('counts from the events function’s log the notices SES did not take, alarming on those it will take once fixed', () => {
    const eventsLogGroup = functionOf('events')[1].Properties.LoggingConfig.LogGroup.Ref;
    expect(eventsLogGroup).toMatch(/^EventsFunctionevents/);
    const filters = new Map(
      resources('AWS::Logs::MetricFilter').map(([, f]) => [
        f.Properties.MetricTransformations[0].MetricName,
        f.Properties,
      ]),
    );
    for (const [metric, message] of [
      ['NoticesNotSent', 'notice not sent'],
      ['NoticesRefused', 'notice refused'],
    ])
      expect(filters.get(metric), metric).toMatchObject({
        LogGroupName: { Ref: eventsLogGroup },
        FilterPattern: `{ $.message = "${message}" }`,
        MetricTransformations: [
          { MetricNamespace: 'FlightBooking', Dimensions: [{ Key: 'Stage', Value: '$.stage' }] },
        ],
      });
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms.find((a) => a.AlarmName === 'flight-booking-dev-NoticesNotSent')).toMatchObject({
      Namespace: 'FlightBooking',
      MetricName: 'NoticesNotSent',
      Dimensions: [{ Name: 'Stage', Value: 'dev' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [expect.objectContaining({ Ref: expect.stringMatching(/^MonitoringAlarmsTopic/) })],
    });
    // A traveller's bad address is the traveller's: counted, never paged about.
    expect(alarms.filter((a) => a.MetricName === 'NoticesRefused')).toEqual([]);
  });

  it('alarms on both dead-letter queues and on the stream falling behind', () => {
    const names = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmName);
    for (const id of [
      'EventsDeadLetters',
      'DeliveryDeadLetters',
      'EventsIteratorAge',
      'events-Errors',
      'deliveries-Errors',
    ])
      expect(names).toContain(`flight-booking-dev-${id}`);
  });
});
