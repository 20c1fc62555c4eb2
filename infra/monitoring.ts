import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { FilterPattern, type IFilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface MonitoringProps {
  readonly api: RestApi;
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  readonly table: TableV2;
  /** The send-otp log group, where failed code deliveries are logged. */
  readonly deliveryLogGroup: ILogGroup;
  readonly alarmEmail?: string;
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
    readonly webAclName: string;
  };
}

const FIVE_MINUTES = Duration.minutes(5);
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
  readonly alarms: Alarm[] = [];
  private readonly stage: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.stage = props.stage;
    const key = new Key(this, 'TopicKey', {
      description: 'Encrypts the flight booking alarm topic',
      enableKeyRotation: true,
    });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Alarms', {
      displayName: 'Flight booking API alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) {
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
      const subscription = this.topic.node.tryFindChild(props.alarmEmail);
      if (subscription) {
        Validations.of(subscription).acknowledge({
          id: 'Serverless::Serverless-SNSRedrivePolicy',
          reason:
            "An undeliverable alarm e-mail shows in the topic's NumberOfNotificationsFailed metric; a dead-letter queue would hold copies nobody reads.",
        });
      }
    }

    const { api, table } = props;
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        requests: api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' }),
      },
      label: 'API 5xx rate (%)',
      period: FIVE_MINUTES,
    });
    this.alarm('Api5xxRate', serverErrorRate, 1, 'More than 1 % of API requests answered 5xx', 2);

    for (const [routeId, fn] of props.functions) {
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

    const deliveryFailures = new MetricFilter(this, 'DeliveryFailureFilter', {
      logGroup: props.deliveryLogGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', 'code delivery failed'),
      metricNamespace: 'FlightBooking',
      metricName: 'CodeDeliveryFailures',
      metricValue: '1',
      // Every log line carries its stage: two stages in one account count apart.
      dimensions: { Stage: '$.stage' },
    }).metric({ period: FIVE_MINUTES, statistic: 'Sum', dimensionsMap: { Stage: props.stage } });
    this.alarm('CodeDeliveryFailures', deliveryFailures, 1, 'SES or SNS refused to deliver a sign-in code');
    // SMS delivered or not after SNS accepted it is account-wide: the account stack alarms on it.
    this.abuseAlarms(props);

    const functions = [...props.functions.values()];
    new Dashboard(this, 'Dashboard', {
      widgets: [
        [
          new GraphWidget({
            title: 'API requests and errors',
            left: [
              api.metricCount({ period: FIVE_MINUTES }),
              api.metricClientError({ period: FIVE_MINUTES }),
              api.metricServerError({ period: FIVE_MINUTES }),
            ],
          }),
          new GraphWidget({
            title: 'API latency (p50, p99)',
            left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' })],
          }),
        ],
        [
          new GraphWidget({
            title: 'Function errors',
            left: functions.map((fn) => fn.metricErrors({ period: FIVE_MINUTES })),
          }),
          new GraphWidget({
            title: 'Function duration p99',
            left: functions.map((fn) => fn.metricDuration({ statistic: 'p99' })),
          }),
        ],
        [
          new GraphWidget({ title: 'DynamoDB throttled requests', left: [dynamoThrottles] }),
          new GraphWidget({ title: 'DynamoDB system errors', left: [dynamoErrors] }),
          new GraphWidget({ title: 'Sign-in code delivery failures', left: [deliveryFailures] }),
        ],
      ],
    });
  }

  /** Spikes that mean someone is guessing codes, hammering sign-in, or running up the SES/SNS bill. */
  private abuseAlarms(props: MonitoringProps): void {
    const { thresholds, verifyLogGroup, webAclName } = props.abuse;
    const count = (id: string, logGroup: ILogGroup, pattern: IFilterPattern, period: Duration) =>
      new MetricFilter(this, `${id}Filter`, {
        logGroup,
        filterPattern: pattern,
        metricNamespace: 'FlightBooking',
        metricName: id,
        metricValue: '1',
        dimensions: { Stage: '$.stage' },
      }).metric({ period, statistic: 'Sum', dimensionsMap: { Stage: props.stage } });
    const answered = (...codes: string[]) =>
      FilterPattern.any(...codes.map((code) => FilterPattern.stringValue('$.code', '=', code)));

    this.alarm(
      'WrongCodes',
      count('WrongCodes', verifyLogGroup, answered('INVALID_CODE', 'TOO_MANY_ATTEMPTS'), FIVE_MINUTES),
      thresholds.wrongCodesPer5Minutes,
      'A spike of wrong sign-in codes (INVALID_CODE, TOO_MANY_ATTEMPTS): someone may be guessing',
    );
    this.alarm(
      'RateLimitedSends',
      count('RateLimitedSends', props.deliveryLogGroup, answered('RATE_LIMITED'), FIVE_MINUTES),
      thresholds.rateLimitedPer5Minutes,
      'A spike of throttled code requests (RATE_LIMITED): someone may be spending agents’ sends',
    );
    this.alarm(
      'CodeSends',
      count(
        'CodeSends',
        props.deliveryLogGroup,
        FilterPattern.stringValue('$.message', '=', 'code sent'),
        Duration.hours(1),
      ),
      thresholds.codeSendsPerHour,
      'More sign-in codes sent in an hour than expected: the SES and SNS bill',
    );
    this.alarm(
      'WafBlocks',
      new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: webAclName, Region: Stack.of(this).region, Rule: 'ALL' },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      }),
      thresholds.wafBlocksPer5Minutes,
      'A spike of requests blocked by the firewall',
    );
  }

  private alarm(
    id: string,
    metric: IMetric,
    threshold: number,
    description: string,
    datapoints = 1,
    comparisonOperator = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  ): void {
    const alarm = new Alarm(this, id, {
      alarmName: `flight-booking-${this.stage}-${id}`,
      metric,
      threshold,
      evaluationPeriods: datapoints,
      comparisonOperator,
      alarmDescription: description,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}
