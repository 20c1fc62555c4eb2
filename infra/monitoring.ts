import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FilterPattern, type IFilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { sweepJob } from '../shared/routes.ts';
import { AlarmTopic } from './alarm-topic.ts';
import { addDashboard } from './dashboard.ts';
import { EMAIL_EVENT_DIMENSION, noticeEmailDimension } from './email.ts';
import type { EventPipeline } from './events.ts';

interface MonitoringProps {
  readonly api: RestApi;
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  readonly table: TableV2;
  /** The send-otp log group, where failed code deliveries are logged. */
  readonly deliveryLogGroup: ILogGroup;
  readonly alarmEmail?: string;
  /** What happens to the alarm topic's key when the stack is deleted: the stage's data policy. */
  readonly removalPolicy: RemovalPolicy;
  /** The web ACL's name and its rules: the WAF alarm and the dashboard read their metrics. */
  readonly firewall: { readonly webAclName: string; readonly ruleNames: readonly string[] };
  /** Whether the stage has an SES configuration set publishing delivery events (bounce and complaint alarms). */
  readonly emailEvents: boolean;
  /** Whether traveller notices have their own configuration set (their bounce and complaint alarms). */
  readonly noticeEmailEvents: boolean;
  /** Names the alarms and dimensions the stack's own metrics, so one stage's failures page only its own. */
  readonly stage: string;
  /** Where abuse shows: wrong codes in verify-otp's log, throttled sends, WAF blocks, delivered codes. */
  readonly abuse: {
    readonly thresholds: {
      readonly wrongCodesPer5Minutes: number;
      readonly rateLimitedPer5Minutes: number;
      readonly wafBlocksPer5Minutes: number;
      readonly codeSendsPerHour: number;
    };
    readonly verifyLogGroup: ILogGroup;
  };
  /** The event pipeline: its dead-letter queues and how far the events function lags the stream. */
  readonly events: EventPipeline;
}

const FIVE_MINUTES = Duration.minutes(5);
const ONE_HOUR = Duration.hours(1);
/** SES puts an account under review at a 5 % bounce rate; fewer sends than this in an hour prove nothing. */
const BOUNCE_RATE_PERCENT = 5;
const MIN_SENDS_FOR_BOUNCE_RATE = 20;
/** How long a delivery message may wait visible before the queue counts as not draining. */
const DELIVERY_BACKLOG_SECONDS = 30 * 60;
/** How long the table may be written with nothing read from its stream before that is a stopped mapping. */
const STREAM_SILENCE = Duration.minutes(15);
const OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

/** Alarms on what hurts agents (5xx, errors, throttles, failed code deliveries), sent to one topic; a dashboard. */
export class Monitoring extends Construct {
  readonly topic: Topic;
  /** Set, not generated: the README and the runbook name it. */
  readonly dashboardName: string;
  readonly alarms: Alarm[] = [];
  private readonly alarmTopic: AlarmTopic;
  private readonly stage: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.stage = props.stage;
    this.alarmTopic = new AlarmTopic(this, 'Alarms', {
      displayName: 'Flight booking API alarms',
      email: props.alarmEmail,
      removalPolicy: props.removalPolicy,
    });
    this.topic = this.alarmTopic.topic;

    const { api, table } = props;
    this.apiAlarms(api, props.functions);
    const { dynamoErrors, dynamoThrottles } = this.tableAlarms(table);

    const deliveryFailures = this.countLines(
      'CodeDeliveryFailures',
      props.deliveryLogGroup,
      FilterPattern.stringValue('$.message', '=', 'code delivery failed'),
      FIVE_MINUTES,
      'DeliveryFailureFilter',
    );
    this.alarm('CodeDeliveryFailures', deliveryFailures, 1, 'SES or SNS refused to deliver a sign-in code');
    // SMS delivered or not after SNS accepted it is account-wide: the account stack alarms on it.

    const events = [...this.eventAlarms(props.events, table), ...this.noticeAlarms(props.events)];
    this.sweepAlarm(props.functions.get(sweepJob.id));
    const abuse = this.abuseAlarms(props);
    const email = props.emailEvents ? this.emailAlarms('Email', this.stage, 'sign-in e-mail') : [];
    const notices = props.noticeEmailEvents
      ? this.emailAlarms('Notice', noticeEmailDimension(this.stage), 'traveller notice')
      : [];

    this.dashboardName = `flight-booking-${props.stage}`;
    addDashboard(this, {
      name: this.dashboardName,
      api,
      functions: [...props.functions.values()],
      dynamo: { throttles: dynamoThrottles, errors: dynamoErrors },
      signIn: { deliveryFailures, ...abuse },
      email,
      notices,
      firewall: props.firewall,
      events,
    });
  }

  /** The API's 5xx rate, and each function's errors and throttles. */
  private apiAlarms(api: MonitoringProps['api'], functions: MonitoringProps['functions']) {
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        requests: api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      label: 'API 5xx rate (%)',
      period: FIVE_MINUTES,
    });
    this.alarm(
      'Api5xxRate',
      serverErrorRate,
      1,
      'At least 1 % of API requests answered 5xx in two 5-minute periods in a row',
      2,
    );

    for (const [routeId, fn] of functions) {
      this.alarm(
        `${routeId}-Errors`,
        fn.metricErrors({ period: FIVE_MINUTES }),
        1,
        `${routeId}: function errors (crashes, timeouts)`,
      );
      this.alarm(
        `${routeId}-Throttles`,
        fn.metricThrottles({ period: FIVE_MINUTES }),
        1,
        `${routeId}: function throttled`,
      );
    }
  }

  /** DynamoDB's system errors and throttles on the operations the service makes. */
  private tableAlarms(table: TableV2) {
    const dynamoErrors = table.metricSystemErrorsForOperations({
      operations: OPERATIONS,
      period: FIVE_MINUTES,
    });
    const dynamoThrottles = table.metricThrottledRequestsForOperations({
      operations: OPERATIONS,
      period: FIVE_MINUTES,
    });
    this.alarm('DynamoSystemErrors', dynamoErrors, 1, 'DynamoDB system errors');
    this.alarm('DynamoThrottles', dynamoThrottles, 1, 'DynamoDB throttled requests');
    return { dynamoErrors, dynamoThrottles };
  }

  /** Spikes that mean someone is guessing codes, hammering sign-in, or running up the SES/SNS bill. */
  private abuseAlarms(props: MonitoringProps): Record<string, IMetric> {
    const { thresholds } = props.abuse;
    const metrics = this.abuseMetrics(props);
    this.alarm(
      'WrongCodes',
      metrics.wrongCodes,
      thresholds.wrongCodesPer5Minutes,
      'A spike of wrong sign-in codes (INVALID_CODE, TOO_MANY_ATTEMPTS): someone may be guessing',
    );
    this.alarm(
      'RateLimitedSends',
      metrics.rateLimitedSends,
      thresholds.rateLimitedPer5Minutes,
      'A spike of throttled code requests (RATE_LIMITED): someone may be spending agents’ sends',
    );
    this.alarm(
      'CodeSends',
      metrics.codeSends,
      thresholds.codeSendsPerHour,
      'More sign-in codes sent in an hour than expected: the SES and SNS bill',
    );
    this.alarm(
      'AgencyCodeBudgetSpent',
      metrics.agencyBudgetSpent,
      1,
      'An agency’s hourly budget of sign-in codes is spent: its agents get 429 until the next hour; abuse, or a budget too small',
    );
    this.alarm(
      'WafBlocks',
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: props.firewall.webAclName, Region: Stack.of(this).region, Rule: 'ALL' },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      }),
      thresholds.wafBlocksPer5Minutes,
      'A spike of requests blocked by the firewall',
    );
    return metrics;
  }

  /** What the abuse alarms count, from the sign-in functions' log lines. */
  private abuseMetrics(props: MonitoringProps) {
    const { verifyLogGroup } = props.abuse;
    const count = (id: string, logGroup: ILogGroup, pattern: IFilterPattern, period: Duration) =>
      this.countLines(id, logGroup, pattern, period);
    const answered = (...codes: string[]) =>
      FilterPattern.any(...codes.map((code) => FilterPattern.stringValue('$.code', '=', code)));

    return {
      wrongCodes: count(
        'WrongCodes',
        verifyLogGroup,
        answered('INVALID_CODE', 'TOO_MANY_ATTEMPTS'),
        FIVE_MINUTES,
      ),
      rateLimitedSends: count(
        'RateLimitedSends',
        props.deliveryLogGroup,
        answered('RATE_LIMITED'),
        FIVE_MINUTES,
      ),
      codeSends: count(
        'CodeSends',
        props.deliveryLogGroup,
        FilterPattern.stringValue('$.message', '=', 'code sent'),
        ONE_HOUR,
      ),
      agencyBudgetSpent: count(
        'AgencyCodeBudgetSpent',
        props.deliveryLogGroup,
        FilterPattern.stringValue('$.message', '=', 'agency code budget spent'),
        FIVE_MINUTES,
      ),
    };
  }

  /**
   * The event pipeline's alarms: dead letters as they arrive, a delivery queue that stopped draining,
   * a stream mapping that stopped reading, and the events function falling behind.
   */
  private eventAlarms(events: EventPipeline, table: TableV2): IMetric[] {
    const [streamDeadLetters, deliveryDeadLetters] = this.deadLetterAlarms(events);
    // A delivery message is handled within seconds of becoming visible (retries are new messages with
    // their own delay): one visible for half an hour means the delivery function is not draining it.
    const oldestDelivery = events.deliveryQueue.metricApproximateAgeOfOldestMessage({
      period: FIVE_MINUTES,
      statistic: 'Maximum',
    });
    this.alarm(
      'DeliveryBacklog',
      oldestDelivery,
      DELIVERY_BACKLOG_SECONDS,
      'A webhook delivery message has waited more than 30 minutes: the delivery function is not draining its queue',
      2,
    );
    const { polled, iteratorAge } = this.streamAlarms(events, table);
    return [
      streamDeadLetters,
      deliveryDeadLetters,
      oldestDelivery,
      polled,
      ...(iteratorAge ? [iteratorAge] : []),
    ];
  }

  /** New dead letters on either queue: each is a change or a delivery given up on. */
  private deadLetterAlarms(events: EventPipeline): [IMetric, IMetric] {
    // New dead letters, not dead letters present: an alarm on the visible count stays in ALARM for the
    // queue's 14 days after one message, and alarms notify only on a change of state, so a second
    // failure would page no one. The stream mapping sends its failures to its queue, so the queue's
    // NumberOfMessagesSent counts them as they arrive (and nothing else: reading a dead letter does not).
    const streamDeadLetters = events.streamDeadLetters.metricNumberOfMessagesSent({
      period: FIVE_MINUTES,
      statistic: 'Sum',
      label: 'new stream dead letters',
    });
    // SQS's redrive moves a delivery message without a send, so that queue's arrivals are its visible
    // count going up. An idle, empty queue publishes no metrics at all: FILL gives DIFF the zero before
    // the first dead letter after a quiet spell, which would otherwise have no earlier point and no value.
    const deliveryDeadLetters = new MathExpression({
      expression: 'DIFF(FILL(deliveryDlq, 0))',
      usingMetrics: {
        deliveryDlq: events.deliveryDeadLetters.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
      },
      label: 'new delivery dead letters',
      period: FIVE_MINUTES,
    });
    this.alarm(
      'EventsDeadLetters',
      streamDeadLetters,
      1,
      'New booking changes could not be published after retries: their notices and webhooks were not sent',
    );
    this.alarm(
      'DeliveryDeadLetters',
      deliveryDeadLetters,
      1,
      'New webhook delivery messages could not be handled five times: those deliveries stopped',
    );
    return [streamDeadLetters, deliveryDeadLetters];
  }

  /** The stream mapping stopped (the table written, nothing read), or the events function behind. */
  private streamAlarms(events: EventPipeline, table: TableV2) {
    const polled = new Metric({
      namespace: 'AWS/Lambda',
      metricName: 'PolledEventCount',
      dimensionsMap: { EventSourceMappingUUID: events.streamMappingId },
      period: STREAM_SILENCE,
      statistic: 'Sum',
    });
    const writes = table.metricConsumedWriteCapacityUnits({ period: STREAM_SILENCE, statistic: 'Sum' });
    // Every write is a stream record the mapping polls before its filter: writes with nothing polled is
    // a mapping that stopped (disabled, or its function deleted), which no IteratorAge would show.
    this.alarm(
      'EventsStreamStopped',
      new MathExpression({
        expression: 'IF(writes > 0 AND FILL(polled, 0) == 0, 1, 0)',
        usingMetrics: { writes, polled },
        label: 'table written, stream not read',
        period: STREAM_SILENCE,
      }),
      1,
      'The table was written for 15 minutes but the events stream mapping read nothing: no notices or webhooks are sent',
    );
    const eventsFn = events.functions.get('events');
    const iteratorAge = eventsFn?.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' });
    if (iteratorAge)
      this.alarm(
        'EventsIteratorAge',
        iteratorAge,
        5 * 60_000,
        'The events function is more than 5 minutes behind the table stream: notices and webhooks are late',
        2,
      );
    return { polled, iteratorAge };
  }

  /**
   * Traveller notices SES did not take (shared/events/publish.ts): `notice not sent` is the stage's
   * or SES's refusal (the sandbox, an unverified sender, a missing configuration set, access denied,
   * paused sending, a throttle the SDK's retries did not outlast), tried again with the stream record,
   * and alarmed: it is every notice until someone fixes it. `notice refused` is an address SES refuses
   * outright, final and the traveller's: counted for the dashboard, not alarmed.
   */
  private noticeAlarms(events: EventPipeline): IMetric[] {
    const logGroup = events.functions.get('events')?.logGroup;
    if (!logGroup) return [];
    const lines = (id: string, message: string) =>
      this.countLines(id, logGroup, FilterPattern.stringValue('$.message', '=', message), FIVE_MINUTES);
    const notSent = lines('NoticesNotSent', 'notice not sent');
    this.alarm(
      'NoticesNotSent',
      notSent,
      1,
      'SES did not take a traveller notice (its set-up, the sandbox, paused sending, throttling): tried again, but none go out until the cause is fixed',
    );
    return [notSent, lines('NoticesRefused', 'notice refused')];
  }

  /**
   * The count of the lines of `logGroup` that match `pattern`, per `period`, as metric `id` of the
   * FlightBooking namespace. Every log line carries its stage: two stages in one account count apart.
   */
  private countLines(
    id: string,
    logGroup: ILogGroup,
    pattern: IFilterPattern,
    period: Duration,
    filterId = `${id}Filter`,
  ): IMetric {
    return new MetricFilter(this, filterId, {
      logGroup,
      filterPattern: pattern,
      metricNamespace: 'FlightBooking',
      metricName: id,
      metricValue: '1',
      dimensions: { Stage: '$.stage' },
    }).metric({ period, statistic: 'Sum', dimensionsMap: { Stage: this.stage } });
  }

  /** The sweep runs every minute from its schedule: no invocation in 5 minutes means the schedule stopped. */
  private sweepAlarm(sweep: NodejsFunction | undefined): void {
    if (!sweep) return;
    this.alarm(
      'SweepStopped',
      sweep.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' }),
      1,
      'The sweep did not run for 5 minutes: late holds keep their seats and PENDING supplier bookings stay unsettled',
      1,
      ComparisonOperator.LESS_THAN_THRESHOLD,
      TreatMissingData.BREACHING,
    );
  }

  /**
   * What SES reports about one configuration set's e-mails after sending (`dimension` tells the sets
   * apart): bounces and complaints, its reputation. `prefix` names the alarms, `what` the e-mail.
   */
  private emailAlarms(prefix: string, dimension: string, what: string): IMetric[] {
    const ses = (metricName: string) =>
      new Metric({
        namespace: 'AWS/SES',
        metricName,
        dimensionsMap: { [EMAIL_EVENT_DIMENSION]: dimension },
        period: ONE_HOUR,
        statistic: 'Sum',
      });
    const [sends, bounces, complaints] = [ses('Send'), ses('Bounce'), ses('Complaint')];
    this.alarm(
      `${prefix}BounceRate`,
      new MathExpression({
        expression: `IF(sends >= ${MIN_SENDS_FOR_BOUNCE_RATE}, 100 * bounces / sends, 0)`,
        usingMetrics: { sends, bounces },
        label: `${what[0]?.toUpperCase()}${what.slice(1)} bounce rate (%)`,
        period: ONE_HOUR,
      }),
      BOUNCE_RATE_PERCENT,
      `At least ${BOUNCE_RATE_PERCENT} % of ${what}s bounced in an hour: SES reviews the account from 5 %`,
    );
    this.alarm(`${prefix}Complaints`, complaints, 1, `A recipient marked a ${what} as spam`);
    return [sends, bounces, complaints];
  }

  private alarm(
    id: string,
    metric: IMetric,
    threshold: number,
    description: string,
    datapoints = 1,
    comparisonOperator = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData = TreatMissingData.NOT_BREACHING,
  ): void {
    const alarmName = `flight-booking-${this.stage}-${id}`;
    const alarm = new Alarm(this, id, {
      alarmName,
      metric,
      threshold,
      evaluationPeriods: datapoints,
      comparisonOperator,
      alarmDescription: description,
      treatMissingData,
    });
    this.alarmTopic.notify(alarm, alarmName);
    this.alarms.push(alarm);
  }
}
