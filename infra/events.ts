import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, MetricType, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { bookingKey } from '../shared/bookings/entity/booking-item.ts';
import { DELIVERY_LEASE_MS } from '../shared/events/delivery-item.ts';
import { pingKey } from '../shared/events/ping-item.ts';
import { functionSettings } from '../shared/function-spec.ts';
import { eventFunctions } from '../shared/routes.ts';
import { RouteFunction } from './route-function.ts';

interface EventPipelineProps {
  readonly table: TableV2;
  readonly signingKey: ISecret;
  readonly logRetention: RetentionDays;
  readonly stage: string;
  readonly ses: { fromAddress: string; configurationSet?: string };
  readonly removalPolicy: RemovalPolicy;
}

/**
 * How many times Lambda retries a failing stream batch (bisecting it) before the dead-letter queue:
 * enough to ride out a short SES or DynamoDB hiccup (each try already retries its calls), few enough
 * that a poison record holds its shard up for seconds, not hours.
 */
const STREAM_RETRY_ATTEMPTS = 10;
/** A delivery message received this often without being handled goes to the delivery dead-letter queue. */
const DELIVERY_MAX_RECEIVES = 5;

/**
 * The event pipeline (docs/API.md §4.6): the table's stream feeds the events function (notices through
 * SES, one delivery per webhook endpoint), which enqueues webhook attempts on the delivery queue; the
 * delivery function makes them, and enqueues each retry with its delay — the waiting is SQS's, not a
 * function's. Poison stream records end in a dead-letter queue after bisection and retries; delivery
 * messages that cannot be handled (not failed attempts: those are retried and recorded) in another.
 */
export class EventPipeline extends Construct {
  readonly functions = new Map<string, NodejsFunction>();
  readonly streamDeadLetters: Queue;
  readonly deliveryDeadLetters: Queue;
  readonly deliveryQueue: Queue;
  /** The stream mapping's id: its event-count metrics tell a stopped mapping from a quiet table. */
  readonly streamMappingId: string;

  constructor(scope: Construct, id: string, props: EventPipelineProps) {
    super(scope, id);
    const queues = this.addQueues(props.removalPolicy);
    this.streamDeadLetters = queues.streamDeadLetters;
    this.deliveryDeadLetters = queues.deliveryDeadLetters;
    this.deliveryQueue = queues.deliveryQueue;
    const [events, deliveries] = eventFunctions;

    const environment = {
      TABLE_NAME: props.table.tableName,
      STAGE: props.stage,
      NOTICE_SENDER: 'aws',
      SES_FROM_ADDRESS: props.ses.fromAddress,
      ...(props.ses.configurationSet && { SES_CONFIGURATION_SET: props.ses.configurationSet }),
      DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl,
    };
    const make = (spec: (typeof eventFunctions)[number], extra: Record<string, string> = {}) => {
      const { fn } = new RouteFunction(this, `Function-${spec.id}`, {
        route: spec,
        table: props.table,
        signingKey: props.signingKey,
        logRetention: props.logRetention,
        ses: props.ses,
        deliveryQueue: this.deliveryQueue,
        environment: { ...environment, ...extra },
      });
      this.functions.set(spec.id, fn);
      return fn;
    };

    const eventsFn = make(events);
    const stream = tableStream(props.table, this.streamDeadLetters);
    eventsFn.addEventSource(stream);
    this.streamMappingId = stream.eventSourceMappingId;

    const deliveriesFn = make(deliveries, { SIGNING_KEY_SECRET_ID: props.signingKey.secretArn });
    deliveriesFn.addEventSource(
      new SqsEventSource(this.deliveryQueue, {
        batchSize: 10,
        reportBatchItemFailures: true,
        // Bounds how many receivers are called at once, so a burst cannot take the account's concurrency.
        maxConcurrency: 20,
      }),
    );
    Validations.of(deliveriesFn).acknowledge({
      id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
      reason:
        'An SQS event source mapping takes no on-failure destination; messages that keep failing move to the delivery dead-letter queue by the queue’s redrive policy.',
    });
  }

  /**
   * The delivery queue and the two dead-letter queues: the stream mapping's on-failure destination, and
   * the delivery queue's redrive target.
   */
  private addQueues(removalPolicy: RemovalPolicy) {
    const queueDefaults = {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
    };
    const streamDeadLetters = new Queue(this, 'StreamDeadLetters', {
      ...queueDefaults,
      retentionPeriod: Duration.days(14),
    });
    const deliveryDeadLetters = new Queue(this, 'DeliveryDeadLetters', {
      ...queueDefaults,
      retentionPeriod: Duration.days(14),
    });
    const lastStop =
      'A dead-letter queue is the last stop: its messages are kept 14 days, alarmed on, and redriven by hand (docs/runbook.md)';
    Validations.of(streamDeadLetters).acknowledge(
      {
        id: 'AwsSolutions::AwsSolutions-SQS3',
        reason: `The events stream mapping's on-failure destination. ${lastStop}.`,
      },
      { id: 'Serverless::Serverless-SQSRedrivePolicy', reason: `${lastStop}.` },
    );
    Validations.of(deliveryDeadLetters).acknowledge({
      id: 'Serverless::Serverless-SQSRedrivePolicy',
      reason: `The delivery queue's redrive target. ${lastStop}.`,
    });
    const deliveryQueue = new Queue(this, 'DeliveryQueue', {
      ...queueDefaults,
      // Six times the delivery function's timeout (AWS's advice for SQS event sources), and longer than
      // an attempt's claim, so a message handed over again finds a crashed attempt's claim expired.
      visibilityTimeout: Duration.seconds(
        Math.max(6 * functionSettings(eventFunctions[1]).timeoutSeconds, (2 * DELIVERY_LEASE_MS) / 1000),
      ),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deliveryDeadLetters, maxReceiveCount: DELIVERY_MAX_RECEIVES },
    });
    return { streamDeadLetters, deliveryDeadLetters, deliveryQueue };
  }
}

/** The table's stream as the events function reads it: in order per shard, booking and ping items only. */
function tableStream(table: EventPipelineProps['table'], deadLetters: Queue): DynamoEventSource {
  return new DynamoEventSource(table, {
    // From the oldest record kept: an event written before the first deployment of this function
    // is still published (the notice and delivery guards make a re-read harmless).
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: 100,
    maxBatchingWindow: Duration.seconds(1),
    // One batch per shard at a time: a booking's changes are published in the order they happened.
    parallelizationFactor: 1,
    reportBatchItemFailures: true,
    bisectBatchOnError: true,
    retryAttempts: STREAM_RETRY_ATTEMPTS,
    maxRecordAge: Duration.days(1),
    onFailure: new SqsDlq(deadLetters),
    // Only booking items and webhook pings are events (shared/events/booking-event.ts, ping-item.ts):
    // sign-ins, sessions, seats and deliveries, most of the table's writes, never invoke the function.
    filters: [bookingKey(''), pingKey('')].map(({ pk, sk }) =>
      FilterCriteria.filter({
        dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(pk) }, sk: { S: FilterRule.isEqual(sk) } } },
      }),
    ),
    // PolledEventCount counts every record read, filtered or not: none while the table is written
    // means the mapping stopped (Monitoring's EventsStreamStopped).
    metricsConfig: { metrics: [MetricType.EVENT_COUNT] },
  });
}
