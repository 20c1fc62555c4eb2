import {
  CfnOutput,
  Duration,
  RemovalPolicy,
  Size,
  Stack,
  type StackProps,
  Tags,
  Validations,
} from 'aws-cdk-lib';
import {
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { AttributeType, Billing, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table.ts';
import { documentRoute, type Route, routes, SWEEP_EVERY_SECONDS, sweepJob } from '../shared/routes.ts';
import { ConsoleSite, consoleFunction } from './console.ts';
import { noticeEmailDimension, StageEmail } from './email.ts';
import { EventPipeline } from './events.ts';
import { Firewall } from './firewall.ts';
import { accessLogFormat, addCustomDomain, addGatewayResponses, addMethodNotAllowed } from './gateway.ts';
import { Monitoring } from './monitoring.ts';
import { RouteFunction } from './route-function.ts';
import type { FlightBookingConfig } from './stage-config.ts';

/** Every resource of a stage carries these tags: cost reports and IAM conditions tell stages apart. */
const SERVICE_TAG = 'flight-booking';

interface FlightBookingStackProps extends StackProps {
  readonly config: FlightBookingConfig;
  /** A finished build of the agent console (infra/web/build.ts), which the stack serves at `/`. */
  readonly consoleBuild: string;
}

/**
 * The whole service: one table, the signing key, one function per entry of the route table with
 * exactly the permissions the entry names, a REST API with one resource per route behind WAF, and the
 * alarms and dashboard that watch it.
 */
export class FlightBookingStack extends Stack {
  readonly table: TableV2;
  readonly api: RestApi;
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: FlightBookingStackProps) {
    super(scope, id, props);
    const { config } = props;
    // Kept on update and delete, but removed when the stack's first creation fails and rolls back: a
    // failed first deploy leaves no orphaned table, key or queue behind to block the next attempt.
    const removalPolicy = config.dataProtection.retainOnDelete
      ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
      : RemovalPolicy.DESTROY;
    Tags.of(this).add('Service', SERVICE_TAG);
    Tags.of(this).add('Stage', config.stage);

    this.table = this.addTable(config, removalPolicy);
    addStageEmail(this, config);
    const signingKey = this.addSigningKey(removalPolicy);
    const { api, accessLogs } = this.addApi(config, removalPolicy);
    this.api = api;
    const environment = this.functionEnvironment(config, signingKey);
    this.addRoutes(config, signingKey, environment);
    this.addConsole(config, signingKey, props.consoleBuild);
    const schedule = this.addSweep(config, signingKey, environment);

    // Traveller notices and agency webhooks, from the table's stream.
    const events = new EventPipeline(this, 'Events', {
      table: this.table,
      signingKey,
      logRetention: config.logRetention,
      stage: config.stage,
      ses: { fromAddress: config.sesFromAddress, configurationSet: config.sesNoticesConfigurationSet },
      removalPolicy,
    });
    for (const [id, fn] of events.functions) this.functions.set(id, fn);
    acknowledgeApiFindings(this.api);

    const firewall = new Firewall(this, 'Firewall', {
      stage: this.api.deploymentStage,
      stageName: config.stage,
      limits: config.waf,
      blockedAddresses: config.blockedAddresses,
      corsOrigins: config.corsOrigins,
    });

    const monitoring = this.addMonitoring(config, { removalPolicy, accessLogs, firewall, events });

    Validations.of(this).acknowledge({
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        'The routes answer API Gateway synchronously, and the two event functions are fed by event source mappings whose failures go to their own dead-letter queues (the stream mapping’s on-failure destination, the delivery queue’s redrive policy). The one asynchronous invocation, the sweep’s schedule, keeps nothing to retry: its invoke config allows 0 retries and a one-minute age, and the next tick redoes the work.',
    });

    this.addOutputs(config, { signingKey, events, monitoring, firewall, schedule });
  }

  /** The table, with its stream, indexes and the stage's data protection. */
  private addTable(config: FlightBookingConfig, removalPolicy: RemovalPolicy): TableV2 {
    const { dataProtection } = config;
    const { partitionKey, sortKey, ttlAttribute, indexes } = tableDefinition;
    return new TableV2(this, 'Table', {
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      timeToLiveAttribute: ttlAttribute,
      // Booking state changes become events from here (docs/API.md §4.6; infra/events.ts).
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: dataProtection.pointInTimeRecovery },
      deletionProtection: dataProtection.deletionProtection,
      removalPolicy,
      globalSecondaryIndexes: indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });
  }

  /** The signing key's secret. */
  private addSigningKey(removalPolicy: RemovalPolicy): Secret {
    // Generated by Secrets Manager at deploy time: the key never appears in the template.
    const signingKey = new Secret(this, 'SigningKey', {
      description: 'Master secret for session tokens, OTP HMACs and offer ids (flight booking API)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(signingKey).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SMG4',
      reason:
        'Rotating the master secret signs everyone out and voids pending codes and offers; it is rotated by a deliberate procedure (README, Deploy), not on a schedule.',
    });
    return signingKey;
  }

  /** The REST API, its stage (throttle, logs, tracing, CORS) and its log groups. */
  private addApi(config: FlightBookingConfig, removalPolicy: RemovalPolicy) {
    // Kept as long as the execution logs: an incident's requests are read from both.
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      retention: config.logRetention,
      removalPolicy,
    });
    const api = new RestApi(this, 'Api', {
      restApiName: `flight-booking-${config.stage}`,
      description: `Flight booking API for travel agencies (${config.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // Answers of 1 KiB and more are gzipped for clients that accept it: the console's script and
      // styles, and the API's larger JSON (a search's offers) alike (docs/decisions.md).
      minCompressionSize: Size.kibibytes(1),
      // API Gateway's CloudWatch role is an account-wide setting: every stage sets the same one, and
      // the role outlives its stack so that deleting one stage never breaks another stage's logging.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        // Per-method metrics cost more than the rest of the stage at rest, and nothing reads them: the
        // alarms and the dashboard read the API's own (README, Cost). A stage turns them on to investigate.
        metricsEnabled: config.apiMethodMetrics,
        // Errors only, and never request or response bodies: they carry sign-in codes and tokens.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: config.throttle.ratePerSecond,
        throttlingBurstLimit: config.throttle.burst,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: accessLogFormat(),
      },
      ...(config.corsOrigins.length > 0 && {
        defaultCorsPreflightOptions: {
          allowOrigins: [...config.corsOrigins],
          allowMethods: ['POST', 'OPTIONS'],
          allowHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key'],
          allowCredentials: true,
        },
      }),
    });
    addGatewayResponses(api, config.corsOrigins);
    // API Gateway writes execution logs to a group of its own naming and would create it without a
    // retention; creating it here first gives it one and deletes it with the stage's data policy.
    const executionLogs = new LogGroup(this, 'ApiExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${api.restApiId}/${config.stage}`,
      retention: config.logRetention,
      removalPolicy,
    });
    // Created before the stage, which starts writing execution logs as soon as it exists.
    api.deploymentStage.node.addDependency(executionLogs);
    return { api, accessLogs };
  }

  /** What every function that works on the table reads at cold start (shared/config.ts). */
  private functionEnvironment(config: FlightBookingConfig, signingKey: Secret) {
    return {
      TABLE_NAME: this.table.tableName,
      SIGNING_KEY_SECRET_ID: signingKey.secretArn,
      STAGE: config.stage,
      ALLOWED_PHONE_COUNTRY_CODES: config.agencyBounds.allowedPhoneCountryCodes.join(','),
      AGENCY_CODES_PER_HOUR: String(config.agencyBounds.codesPerHour),
    };
  }

  /** One function per entry of the route table, each on its resource, and the OpenAPI document. */
  private addRoutes(
    config: FlightBookingConfig,
    signingKey: Secret,
    functionEnvironment: Record<string, string>,
  ) {
    for (const route of routes as readonly Route[]) {
      const { fn } = new RouteFunction(this, `Route-${route.id}`, {
        route,
        table: this.table,
        signingKey,
        logRetention: config.logRetention,
        // A route that e-mails travellers (booking/resend) sends through the notices' set, as the events do.
        ses: {
          fromAddress: config.sesFromAddress,
          configurationSet: route.grants.includes('send-notice')
            ? config.sesNoticesConfigurationSet
            : config.sesConfigurationSet,
        },
        supplier: config.supplier,
        environment: {
          ...functionEnvironment,
          ...(config.corsOrigins.length > 0 && { CORS_ALLOWED_ORIGINS: config.corsOrigins.join(',') }),
          ...(route.grants.includes('send-email') && {
            CODE_SENDER: 'aws',
            SES_FROM_ADDRESS: config.sesFromAddress,
            ...(config.sesConfigurationSet && { SES_CONFIGURATION_SET: config.sesConfigurationSet }),
            ...(config.smsSenderId && { SMS_SENDER_ID: config.smsSenderId }),
          }),
          // A route that e-mails the traveller (booking/resend) sends as the notices do (docs/API.md §4.6).
          ...(route.grants.includes('send-notice') && {
            NOTICE_SENDER: 'aws',
            SES_FROM_ADDRESS: config.sesFromAddress,
            ...(config.sesNoticesConfigurationSet && {
              SES_CONFIGURATION_SET: config.sesNoticesConfigurationSet,
            }),
          }),
        },
      });
      this.functions.set(route.id, fn);
      const resource = this.api.root.resourceForPath(route.path);
      resource.addMethod('POST', new LambdaIntegration(fn));
      addMethodNotAllowed(resource);
    }
    // The OpenAPI document, from the same handler the dev server uses.
    const docs = new RouteFunction(this, 'Route-openapi', {
      route: documentRoute,
      table: this.table,
      signingKey,
      logRetention: config.logRetention,
      ses: { fromAddress: config.sesFromAddress },
      supplier: config.supplier,
      environment: {},
    });
    this.api.root.resourceForPath(documentRoute.path).addMethod('GET', new LambdaIntegration(docs.fn));
    this.functions.set(documentRoute.id, docs.fn);
  }

  /** The agent console: its page at every screen address and its assets, same origin as the API. */
  private addConsole(config: FlightBookingConfig, signingKey: Secret, build: string) {
    const site = new ConsoleSite(this, 'Console', {
      api: this.api,
      build,
      table: this.table,
      signingKey,
      logRetention: config.logRetention,
      ses: { fromAddress: config.sesFromAddress },
    });
    this.functions.set(consoleFunction.id, site.fn);
  }

  /** The sweep and the schedule that runs it every minute. */
  private addSweep(
    config: FlightBookingConfig,
    signingKey: Secret,
    functionEnvironment: Record<string, string>,
  ): Rule {
    // The sweep, on a schedule: late holds expire and free their seats (docs/API.md §4.4), and a remote
    // supplier's PENDING bookings are settled by finding their orders (§4.5).
    const sweep = new RouteFunction(this, 'Job-sweep', {
      route: sweepJob,
      table: this.table,
      signingKey,
      logRetention: config.logRetention,
      ses: { fromAddress: config.sesFromAddress },
      supplier: config.supplier,
      environment: functionEnvironment,
    });
    this.functions.set(sweepJob.id, sweep.fn);
    // The schedule invokes the sweep asynchronously: a failed or late tick is not retried, since the
    // next one a minute later redoes all its work (SweepStopped alarms when none runs).
    sweep.fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.seconds(SWEEP_EVERY_SECONDS) });
    Validations.of(sweep.fn).acknowledge({
      id: 'Serverless::Serverless-LambdaAsyncFailureDestination',
      reason:
        'A schedule tick carries nothing to keep or replay: the next tick a minute later redoes all the work; a failed sweep is alarmed (sweep-Errors) and one that stops running too (SweepStopped).',
    });
    const schedule = new Rule(this, 'SweepSchedule', {
      description: 'Runs the flight booking sweep: expires late holds, settles PENDING supplier bookings',
      schedule: Schedule.rate(Duration.seconds(SWEEP_EVERY_SECONDS)),
      targets: [new LambdaFunction(sweep.fn, { retryAttempts: 0 })],
    });
    Validations.of(schedule).acknowledge({
      id: 'Serverless::Serverless-EventBusDLQ',
      reason:
        'A schedule tick carries nothing to keep: a failed sweep is alarmed (sweep-Errors) and the next tick a minute later redoes all its work, which is idempotent.',
    });
    return schedule;
  }

  /** The alarms, their topic and the dashboard that watch the stage. */
  private addMonitoring(
    config: FlightBookingConfig,
    made: { removalPolicy: RemovalPolicy; accessLogs: LogGroup; firewall: Firewall; events: EventPipeline },
  ): Monitoring {
    const sendOtp = this.functions.get('send-otp');
    return new Monitoring(this, 'Monitoring', {
      api: this.api,
      functions: this.functions,
      table: this.table,
      deliveryLogGroup: sendOtp?.logGroup ?? made.accessLogs,
      alarmEmail: config.alarmEmail,
      removalPolicy: made.removalPolicy,
      firewall: { webAclName: made.firewall.name, ruleNames: made.firewall.ruleNames },
      emailEvents: config.sesConfigurationSet !== undefined,
      noticeEmailEvents: config.sesNoticesConfigurationSet !== undefined,
      stage: config.stage,
      abuse: {
        thresholds: config.abuseAlarms,
        verifyLogGroup: this.functions.get('verify-otp')?.logGroup ?? made.accessLogs,
      },
      events: made.events,
    });
  }

  /** What the README's and the runbook's procedures name, so no one digs through the console for it. */
  private addOutputs(
    config: FlightBookingConfig,
    made: {
      signingKey: Secret;
      events: EventPipeline;
      monitoring: Monitoring;
      firewall: Firewall;
      schedule: Rule;
    },
  ) {
    const { signingKey, events, monitoring, firewall, schedule } = made;
    const outputs: [string, string, string][] = [
      ['ApiUrl', this.api.url, 'Base URL of the API'],
      ['TableName', this.table.tableName, 'For `TABLE_NAME=… npm run agents`'],
      ['SigningKeySecretArn', signingKey.secretArn, 'The master secret (rotation: README, Deploy)'],
      ['StreamDeadLetterQueueArn', events.streamDeadLetters.queueArn, 'Stream records given up on'],
      ['StreamDeadLetterQueueUrl', events.streamDeadLetters.queueUrl, 'For `aws sqs receive-message`'],
      ['DeliveryDeadLetterQueueArn', events.deliveryDeadLetters.queueArn, 'Delivery messages given up on'],
      ['DeliveryDeadLetterQueueUrl', events.deliveryDeadLetters.queueUrl, 'For `aws sqs receive-message`'],
      ['DeliveryQueueUrl', events.deliveryQueue.queueUrl, 'Webhook attempts waiting to be made'],
      ['AlarmTopicArn', monitoring.topic.topicArn, 'Every alarm of the stage'],
      ['WebAclArn', firewall.webAcl.attrArn, 'The firewall (logging: docs/runbook.md)'],
      ['DashboardName', monitoring.dashboardName, 'The stage’s CloudWatch dashboard'],
      ['EventsFunctionName', this.functionName('events'), 'Reads the table stream'],
      ['DeliveriesFunctionName', this.functionName('deliveries'), 'Makes webhook attempts'],
      ['SweepFunctionName', this.functionName(sweepJob.id), 'Expires holds, settles PENDING orders'],
      ['SweepScheduleRuleName', schedule.ruleName, 'The rule that runs the sweep every minute'],
    ];
    if (config.customDomain) {
      const domain = addCustomDomain(this.api, config.customDomain);
      outputs.push(
        ['CustomDomainUrl', domain.url, 'The API and the console on the stage’s own domain'],
        ['CustomDomainTarget', domain.target, 'What the domain’s DNS record points at'],
        ['CustomDomainHostedZoneId', domain.hostedZoneId, 'For a Route 53 alias record'],
      );
    }
    for (const [id, value, description] of outputs) new CfnOutput(this, id, { value, description });
  }

  private functionName(id: string): string {
    const fn = this.functions.get(id);
    if (!fn) throw new Error(`no function ${id} in the stack`);
    return fn.functionName;
  }
}

/** The SES configuration sets the stage names: sign-in's, and traveller notices'. */
function addStageEmail(stack: Stack, config: FlightBookingConfig) {
  // The configuration set the stage names is the stack's own: SendEmail fails on one that does not exist.
  if (config.sesConfigurationSet)
    new StageEmail(stack, 'SignInEmail', { name: config.sesConfigurationSet, dimension: config.stage });
  // Traveller notices have their own, so a traveller's typo never raises the rate that pauses sign-in.
  if (config.sesNoticesConfigurationSet)
    new StageEmail(stack, 'NoticeEmail', {
      name: config.sesNoticesConfigurationSet,
      dimension: noticeEmailDimension(config.stage),
    });
}

/** Why the API's nag findings do not apply. */
function acknowledgeApiFindings(api: RestApi) {
  Validations.of(api).acknowledge(
    {
      id: 'AwsSolutions::AwsSolutions-APIG2',
      reason:
        'Each function validates its body against the zod schema and answers in the contract envelope with one detail per problem; gateway validation would answer in another format.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-APIG4',
      reason:
        'Sign-in (send-otp, verify-otp) is public by design; every other route verifies the session JWT (algorithm, iss, aud, exp, revocation) in its function.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-COG4',
      reason:
        'Agents sign in with one-time codes to session tokens issued by the API itself (docs/API.md §3); there is no Cognito user pool.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level role API Gateway needs to write execution logs; AWS maintains exactly this policy for it.',
    },
  );
}
