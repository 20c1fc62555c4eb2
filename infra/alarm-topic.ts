import { ArnFormat, Lazy, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

interface AlarmTopicProps {
  readonly displayName: string;
  /** Subscribed by e-mail (a subscription to confirm); none means the topic only. */
  readonly email?: string;
  /** What happens to the topic's key when the stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
}

const CLOUDWATCH = new ServicePrincipal('cloudwatch.amazonaws.com');

/**
 * An encrypted SNS topic that CloudWatch alarms of this account can actually publish to. An encrypted
 * topic needs two grants for that, and neither exists by default: the topic's policy must allow
 * CloudWatch to publish (`enforceSSL` alone leaves only a deny), and the key's policy must let
 * CloudWatch use the key. Both are limited to this account (`aws:SourceAccount`), and the topic to the
 * alarms given to `notify` (`aws:SourceArn`), so no other account's or stage's alarm can use them.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  private readonly alarmArns: string[] = [];

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id);
    const account = Stack.of(this).account;
    this.key = new Key(this, 'Key', {
      description: `Encrypts the topic "${props.displayName}"`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisAccount',
        principals: [CLOUDWATCH],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      displayName: props.displayName,
      masterKey: this.key,
      enforceSSL: true,
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfThisStack',
        principals: [CLOUDWATCH],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': Lazy.list({ produce: () => this.alarmArns }) },
        },
      }),
    );
    if (props.email) {
      this.topic.addSubscription(new EmailSubscription(props.email));
      const subscription = this.topic.node.tryFindChild(props.email);
      if (subscription) {
        Validations.of(subscription).acknowledge({
          id: 'Serverless::Serverless-SNSRedrivePolicy',
          reason:
            "An undeliverable alarm e-mail shows in the topic's NumberOfNotificationsFailed metric; a dead-letter queue would hold copies nobody reads.",
        });
      }
    }
  }

  /**
   * Sends `alarm` here when it fires and when it recovers (OK), and lets CloudWatch publish for it. The
   * alarm needs an explicit name: its ARN is written into the topic's policy without a reference.
   */
  notify(alarm: Alarm, alarmName: string): void {
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarmArns.push(
      Stack.of(this).formatArn({
        service: 'cloudwatch',
        resource: 'alarm',
        resourceName: alarmName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    );
  }
}
