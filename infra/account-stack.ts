import { ArnFormat, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterPattern, LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { AlarmTopic } from './alarm-topic.ts';

/** The account's SMS settings: account-wide, so they live here, never in a stage's stack. */
export interface AccountSmsConfig {
  /** USD per month; raise the account's quota with AWS Support first (a new account has $1). */
  readonly monthlySpendLimitUsd: number;
  /** Default alphanumeric sender id, where the destination country allows one. */
  readonly senderId?: string;
  /** Share of successful SMS deliveries logged (failures are always logged). */
  readonly successSamplingPercent: number;
  readonly logRetention: RetentionDays;
  readonly alarmEmail: string;
}

/**
 * One small stack per account and region, deployed on purpose (`-c account=true`), never by a stage
 * deploy: the SMS spend limit and default type, delivery-status logging (so an SMS that fails after
 * SNS accepted it is seen), and an alarm on those failures that can fire.
 */
export class FlightBookingAccountStack extends Stack {
  constructor(scope: Construct, id: string, props: StackProps & { readonly sms: AccountSmsConfig }) {
    super(scope, id, props);
    const { sms } = props;

    this.smsSettings(sms, this.deliveryStatusRole());
    this.failureAlarm(sms);
    acknowledgeFindings(this);
  }

  /**
   * The role SNS writes delivery status to CloudWatch Logs with (AWS's documented permissions), and
   * only for this account's SMS: the confused-deputy condition AWS recommends for service roles.
   */
  private deliveryStatusRole(): Role {
    const deliveryStatusRole = new Role(this, 'SmsDeliveryStatusRole', {
      assumedBy: new ServicePrincipal('sns.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'Lets SNS log SMS delivery status (flight booking API)',
    });
    deliveryStatusRole.addToPolicy(
      new PolicyStatement({
        actions: [
          'logs:CreateLogGroup',
          'logs:CreateLogStream',
          'logs:PutLogEvents',
          'logs:PutRetentionPolicy',
        ],
        resources: [
          this.formatArn({
            service: 'logs',
            resource: 'log-group',
            resourceName: 'sns/*',
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
          this.formatArn({
            service: 'logs',
            resource: 'log-group',
            resourceName: 'sns/*:log-stream:*',
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    return deliveryStatusRole;
  }

  /** The account's SMS attributes, set by a custom resource: spend limit, type, delivery-status logging. */
  private smsSettings(sms: AccountSmsConfig, deliveryStatusRole: Role) {
    const settings = new AwsCustomResource(this, 'SmsSettings', {
      onUpdate: {
        service: 'SNS',
        action: 'setSMSAttributes',
        parameters: {
          attributes: {
            MonthlySpendLimit: String(sms.monthlySpendLimitUsd),
            DefaultSMSType: 'Transactional',
            DeliveryStatusIAMRole: deliveryStatusRole.roleArn,
            DeliveryStatusSuccessSamplingRate: String(sms.successSamplingPercent),
            ...(sms.senderId && { DefaultSenderID: sms.senderId }),
          },
        },
        physicalResourceId: PhysicalResourceId.of('flight-booking-sms-settings'),
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
      logGroup: new LogGroup(this, 'SmsSettingsLogs', {
        retention: sms.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    settings.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['iam:PassRole'], resources: [deliveryStatusRole.roleArn] }),
    );
  }

  /**
   * The SMS log groups, created here so they have a retention: SNS writes delivered SMS (a sample,
   * with the phone numbers) into the first and failed ones into the second, and would create both
   * without one. Any failure raises an alarm.
   */
  private failureAlarm(sms: AccountSmsConfig) {
    const smsLogGroup = (id: string, suffix: string) =>
      new LogGroup(this, id, {
        logGroupName: `sns/${this.region}/${this.account}/DirectPublishToPhoneNumber${suffix}`,
        retention: sms.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      });
    smsLogGroup('SmsDeliveries', '');
    const failures = smsLogGroup('SmsFailures', '/Failure');
    const failed = failures
      .addMetricFilter('SmsFailureCount', {
        filterPattern: FilterPattern.allEvents(),
        metricNamespace: 'FlightBooking',
        metricName: 'SmsDeliveryFailures',
        metricValue: '1',
      })
      .metric({ period: Duration.minutes(5), statistic: 'Sum' });

    // The topic only relays alarms: nothing it encrypted outlives it, so its key goes with the stack.
    const alarms = new AlarmTopic(this, 'Alarms', {
      displayName: 'Flight booking SMS alarms',
      email: sms.alarmEmail,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const alarmName = 'flight-booking-account-SmsDeliveryFailures';
    const alarm = new Alarm(this, 'SmsDeliveryFailuresAlarm', {
      alarmName,
      alarmDescription: 'SMS sign-in codes that SNS accepted but could not deliver',
      metric: failed,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarms.notify(alarm, alarmName);
  }
}

/** Why cdk-nag's findings on the account stack do not apply. */
function acknowledgeFindings(stack: Stack) {
  Validations.of(stack).acknowledge(
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: 'sns:SetSMSAttributes is an account-level action without resource-level permissions.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:sns/*]',
      reason:
        'SNS names its SMS delivery-status log groups itself, under sns/<region>/<account>/…; the grant is limited to that prefix.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:sns/*:log-stream:*]',
      reason: 'The log streams of those groups, named by SNS.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'CDK-managed provider of the SMS settings custom resource; it only writes its own logs.',
    },
    {
      id: 'Serverless::Serverless-LambdaDefaultMemorySize',
      reason: 'CDK-managed deployment-time provider; the default memory fits one SDK call.',
    },
    {
      id: 'Serverless::Serverless-LambdaTracing',
      reason: 'CDK-managed deployment-time provider; nothing to trace at request time.',
    },
    {
      id: 'Serverless::Serverless-LambdaDLQ',
      reason: 'CloudFormation invokes the custom-resource provider synchronously and reports its failures.',
    },
  );
}
