import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { CURRENTLY_RECOMMENDED_FLAGS } from 'aws-cdk-lib/cx-api';
import { describe, expect, it } from 'vitest';
import { functionSettings, iamTableAction } from '#shared/function-spec.ts';
import { documentRoute, eventFunctions, type Route, routes as routeTable } from '#shared/routes.ts';
import { nagFindings } from '#test/helpers/cdk-nag.ts';
import { CONSOLE_RESOURCES } from '#test/helpers/console-resources.ts';
import {
  apiMethods,
  DEVELOPMENT,
  PRODUCTION_FILE,
  resourcesOf,
  roleStatements,
  STAGE_FIXTURES,
  synthStage,
} from '#test/helpers/stage-files.ts';

const routes: readonly Route[] = routeTable;

import {
  type FlightBookingConfig,
  loadStageConfig,
  parseStageConfig,
  type StageFile,
} from '../../infra/stage-config.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is read field by field
type Json = Record<string, any>;

/** A complete production file: real-looking sender and alarm mailbox, every option set. */
const PROD_FILE: StageFile = PRODUCTION_FILE;
const FULL = parseStageConfig('prod', PROD_FILE);
const DEV = DEVELOPMENT;

/**
 * Synthesises the stack as the CLI would, feature flags included, without bundling (synth.test.ts
 * bundles); each configuration once per test process (stage-files.ts).
 */
const synth = (config: FlightBookingConfig = DEV, nag = false) => synthStage(config, nag);

/** The context `cdk synth|deploy` runs with: cdk.json's feature flags. */
const CDK_CONTEXT = JSON.parse(readFileSync('cdk.json', 'utf8')).context as Record<string, unknown>;

const { template } = synth();
const resources = (type: string): [string, Json][] => Object.entries(template.findResources(type));

function functionOf(routeId: string): [string, Json] {
  const route = [...routes, documentRoute].find((r) => r.id === routeId);
  const found = resources('AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Description === `${route?.path} (flight booking API)`,
  );
  if (!found) throw new Error(`no function for ${routeId}`);
  return found;
}

/** The statements of every policy attached to the role of the route's function. */
function statementsOf(routeId: string, t = template): Json[] {
  return roleStatements(t, functionOf(routeId)[1]);
}
const allowed = (routeId: string) =>
  statementsOf(routeId)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => [s.Action].flat());

describe('infra: functions', () => {
  it('creates one Node.js 24 arm64 function per route, plus the one serving the OpenAPI document', () => {
    // …the console's, the sweep, and the event pipeline's.
    expect(resources('AWS::Lambda::Function')).toHaveLength(routes.length + 3 + eventFunctions.length);
    const [, docs] = functionOf(documentRoute.id);
    expect(docs.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    for (const route of routes) {
      const [, fn] = functionOf(route.id);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        // The route table's sizes (512 MB and 10 s unless a route says otherwise).
        MemorySize: functionSettings(route).memoryMb,
        Timeout: functionSettings(route).timeoutSeconds,
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: {
          LogGroup: { Ref: expect.stringContaining(`Route${route.id.replaceAll('-', '')}Logs`) },
        },
      });
      const env = fn.Properties.Environment.Variables;
      const bounds = ['AGENCY_CODES_PER_HOUR', 'ALLOWED_PHONE_COUNTRY_CODES'];
      expect(Object.keys(env).sort()).toEqual(
        route.id === 'send-otp'
          ? [...bounds, 'CODE_SENDER', 'SES_FROM_ADDRESS', 'SIGNING_KEY_SECRET_ID', 'STAGE', 'TABLE_NAME']
          : [
              ...bounds,
              // booking/resend sends as the notices do.
              ...(route.grants.includes('send-notice') ? ['NOTICE_SENDER', 'SES_FROM_ADDRESS'] : []),
              'SIGNING_KEY_SECRET_ID',
              'STAGE',
              ...(route.grants.includes('supplier') ? ['SUPPLIER'] : []),
              'TABLE_NAME',
            ],
      );
      expect(JSON.stringify(env)).not.toContain('enable-source-maps');
    }
  });

  it('keeps logs a month by default', () => {
    for (const [, group] of resources('AWS::Logs::LogGroup'))
      expect(group.Properties.RetentionInDays).toBe(30);
  });

  it('gives every log group a retention, API Gateway’s execution logs included, and has no custom resources', () => {
    const groups = resources('AWS::Logs::LogGroup').map(([, g]) => g.Properties);
    const execution = groups.find((g) =>
      JSON.stringify(g.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    );

    expect(groups.every((g) => g.RetentionInDays === 30)).toBe(true);
    expect(JSON.stringify(execution?.LogGroupName)).toContain('/dev');
    expect(
      Object.keys(template.toJSON().Resources).filter((id) =>
        template.toJSON().Resources[id].Type.startsWith('Custom::'),
      ),
    ).toEqual([]);
  });

  it('configures send-otp for SES and SNS, never the outbox', () => {
    const full = synth(FULL).template;
    const [, fn] = Object.entries(full.findResources('AWS::Lambda::Function')).find(([, f]) =>
      f.Properties.Description.startsWith('/api/auth/send-otp'),
    ) ?? ['', {}];
    expect(fn.Properties.Environment.Variables).toMatchObject({
      CODE_SENDER: 'aws',
      SES_FROM_ADDRESS: 'no-reply@flights.acme-travel.co.uk',
      SES_CONFIGURATION_SET: 'sign-in',
      SMS_SENDER_ID: 'FlightBook',
      CORS_ALLOWED_ORIGINS: 'https://agents.acme-travel.co.uk',
    });
    expect(JSON.stringify(full.toJSON())).not.toContain('outbox');
  });
});

describe('infra: least privilege, exactly as the route table says', () => {
  it.each(routes.map((r) => [r.id, r] as const))('%s', (routeId, route) => {
    const statements = statementsOf(routeId);
    const dynamo = statements.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect([dynamo[0]?.Action].flat().sort()).toEqual(route.table.map(iamTableAction).sort());
    expect(JSON.stringify(dynamo[0]?.Resource)).toContain('TableCD117FA1');
    expect(JSON.stringify(dynamo[0]?.Resource).includes('/index/gsi1')).toBe(route.table.includes('Query'));

    const expected = new Set([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'xray:PutTraceSegments',
      'xray:PutTelemetryRecords',
      ...route.table.map(iamTableAction),
      ...(route.grants.includes('signing-key')
        ? ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret']
        : []),
      ...(route.grants.includes('send-email') || route.grants.includes('send-notice')
        ? ['ses:SendEmail']
        : []),
      ...(route.grants.includes('send-sms') ? ['sns:Publish'] : []),
    ]);
    expect(new Set(allowed(routeId))).toEqual(expected);
    expect(allowed(routeId).filter((a) => a.includes('*'))).toEqual([]);
  });

  it('lets the document function write its logs and traces, nothing else', () => {
    expect(new Set(allowed(documentRoute.id))).toEqual(
      new Set([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'xray:PutTraceSegments',
        'xray:PutTelemetryRecords',
      ]),
    );
  });

  it('limits e-mail to the configured identity and forbids publishing to topics', () => {
    const sendOtp = statementsOf('send-otp');
    const ses = sendOtp.find((s) => s.Action === 'ses:SendEmail');
    // The sandbox authorises the recipient's identity too: any identity of the region, from the sender only.
    expect(JSON.stringify(ses?.Resource)).toContain(':identity/*');
    expect(ses?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@example.com' } });
    const full = statementsOf('send-otp', synth(FULL).template).find((s) => s.Action === 'ses:SendEmail');
    expect(JSON.stringify(full?.Resource)).toContain(':configuration-set/sign-in');
    expect(full?.Condition).toEqual({
      StringEquals: { 'ses:FromAddress': 'no-reply@flights.acme-travel.co.uk' },
    });
    expect(sendOtp).toContainEqual(expect.objectContaining({ Action: 'sns:Publish', Effect: 'Deny' }));
  });

  it('grants no managed policy to any function role', () => {
    for (const route of routes) {
      const [, fn] = functionOf(route.id);
      const role = template.findResources('AWS::IAM::Role')[fn.Properties.Role['Fn::GetAtt'][0]];
      expect(role?.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('infra: data', () => {
  it('builds the table from the shared definition: keys, GSI, TTL, PITR, on demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
    });
  });

  it('protects data as the stage’s configuration says, whatever the stage is called', () => {
    const protectedStaging = synth({ ...FULL, stage: 'staging' }).template;
    const unprotectedProd = synth({
      ...FULL,
      dataProtection: {
        deletionProtection: false,
        retainOnDelete: false,
        pointInTimeRecovery: false,
        terminationProtection: false,
      },
    }).template;

    // Kept on update and delete, removed only when the stack's first creation rolls back.
    protectedStaging.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
    for (const type of [
      'AWS::SecretsManager::Secret',
      'AWS::KMS::Key',
      'AWS::SQS::Queue',
      'AWS::Logs::LogGroup',
    ])
      for (const [id, resource] of resourcesOf(protectedStaging, type).filter(
        ([id]) => !/Function|Route|Job/.test(id),
      ))
        expect(resource.DeletionPolicy, id).toBe('RetainExceptOnCreate');
    unprotectedProd.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
    unprotectedProd.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
  });

  it('generates the signing key in Secrets Manager; the template holds no key', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
    expect(JSON.stringify(template.toJSON())).not.toContain('"SecretString"');
  });
});

/**
 * A gateway response template as API Gateway renders it, with sample values: `$context.requestId` is
 * bare text inside quotes, `$context.error.messageString` arrives already quoted (AWS docs, "$context
 * variables": "the quoted value of $context.error.message").
 */
function renderGatewayTemplate(template: string): string {
  return template
    .replaceAll('$context.requestId', 'c0ffee00-0000-4000-8000-000000000000')
    .replaceAll('$context.error.messageString', '"Forbidden"')
    .replaceAll('$context.error.message', 'Forbidden');
}

describe('infra: API', () => {
  it('has exactly the route table: POST to the function, any other method 405 from the gateway', () => {
    const methods = apiMethods(template).map(({ path, method, integration }) => ({
      path,
      method,
      type: integration.Type,
    }));
    const expected = [
      ...routes.flatMap((r) => [
        { path: r.path, method: 'POST', type: 'AWS_PROXY' },
        { path: r.path, method: 'ANY', type: 'MOCK' },
      ]),
      { path: documentRoute.path, method: 'GET', type: 'AWS_PROXY' },
      // The console's addresses (test/infra/console.test.ts).
      ...CONSOLE_RESOURCES.flatMap((path) => [
        { path, method: 'GET', type: 'AWS_PROXY' },
        { path, method: 'HEAD', type: 'AWS_PROXY' },
        { path, method: 'ANY', type: 'MOCK' },
      ]),
    ];
    expect(methods.sort((a, b) => `${a.path}${a.method}`.localeCompare(`${b.path}${b.method}`))).toEqual(
      expected.sort((a, b) => `${a.path}${a.method}`.localeCompare(`${b.path}${b.method}`)),
    );
    const mock = resources('AWS::ApiGateway::Method').find(([, m]) => m.Properties.HttpMethod === 'ANY')?.[1];
    expect(mock?.Properties.Integration.IntegrationResponses[0]).toMatchObject({
      StatusCode: '405',
      ResponseParameters: { 'method.response.header.Allow': "'POST'" },
    });
    expect(
      mock?.Properties.Integration.IntegrationResponses[0].ResponseTemplates['application/json'],
    ).toContain('"code":"METHOD_NOT_ALLOWED"');
  });

  it.each([
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'NOT_FOUND'],
    ['RESOURCE_NOT_FOUND', '404', 'NOT_FOUND'],
    ['REQUEST_TOO_LARGE', '413', 'PAYLOAD_TOO_LARGE'],
    ['UNSUPPORTED_MEDIA_TYPE', '415', 'UNSUPPORTED_MEDIA_TYPE'],
    ['THROTTLED', '429', 'RATE_LIMITED'],
    ['DEFAULT_4XX', undefined, 'REQUEST_REJECTED'],
    ['DEFAULT_5XX', undefined, 'INTERNAL_ERROR'],
  ])(
    'answers gateway response %s in the envelope (%s %s), valid JSON once rendered',
    (type, status, code) => {
      const [, response] =
        resources('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === type) ??
        [];
      expect(response?.Properties.StatusCode).toBe(status);
      const body = JSON.parse(
        renderGatewayTemplate(response?.Properties.ResponseTemplates['application/json']),
      );
      expect(body).toEqual({
        success: false,
        error: { code, message: expect.any(String), request_id: 'c0ffee00-0000-4000-8000-000000000000' },
      });
      if (type === 'DEFAULT_4XX') expect(body.error.message).toBe('Forbidden');
    },
  );

  it('throttles the stage, logs access as JSON, traces, and never logs bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [
        Match.objectLike({
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ],
    });
  });

  it('puts CORS headers on the gateway’s own answers for a single allowed origin, none otherwise', () => {
    const headersOf = (t: Template) =>
      Object.values(t.findResources('AWS::ApiGateway::GatewayResponse')).map(
        (r) => r.Properties.ResponseParameters ?? {},
      );
    const one = headersOf(synth(FULL).template);
    const two = headersOf(
      synth({ ...FULL, corsOrigins: ['https://a.acme-travel.co.uk', 'https://b.acme-travel.co.uk'] })
        .template,
    );

    expect(one.length).toBeGreaterThanOrEqual(7);
    for (const headers of one) {
      expect(headers).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': "'https://agents.acme-travel.co.uk'",
        'gatewayresponse.header.Access-Control-Allow-Credentials': "'true'",
      });
    }
    for (const headers of [...two, ...headersOf(template)])
      expect(Object.keys(headers).some((h) => h.includes('Access-Control'))).toBe(false);
  });

  it('answers CORS preflights only when origins are configured', () => {
    const options = (t: Template) =>
      Object.values(t.findResources('AWS::ApiGateway::Method')).filter(
        (m) => m.Properties.HttpMethod === 'OPTIONS',
      );
    expect(options(template)).toEqual([]);
    expect(options(synth(FULL).template).length).toBeGreaterThanOrEqual(routes.length);
  });

  it('puts a WAF web ACL in front: per address on sign-in and everywhere, per session, known bad inputs, common rules', () => {
    const limit429 = { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429 }) } };
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      Rules: [
        Match.objectLike({ Name: 'BlockedAddresses' }),
        Match.objectLike({ Name: 'OversizeBody' }),
        Match.objectLike({
          Name: 'AuthRateLimit',
          Action: limit429,
          Statement: {
            RateBasedStatement: Match.objectLike({
              Limit: 100,
              AggregateKeyType: 'IP',
              ScopeDownStatement: { ByteMatchStatement: Match.objectLike({ SearchString: '/api/auth/' }) },
            }),
          },
        }),
        Match.objectLike({
          Name: 'AddressRateLimit',
          Action: limit429,
          Statement: {
            RateBasedStatement: { Limit: 2000, EvaluationWindowSec: 300, AggregateKeyType: 'IP' },
          },
        }),
        Match.objectLike({
          Name: 'SessionRateLimit',
          Action: limit429,
          Statement: {
            RateBasedStatement: Match.objectLike({
              Limit: 1000,
              AggregateKeyType: 'CUSTOM_KEYS',
              CustomKeys: [
                {
                  Header: {
                    Name: 'authorization',
                    TextTransformations: [
                      { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
                      { Priority: 1, Type: 'LOWERCASE' },
                    ],
                  },
                },
              ],
            }),
          },
        }),
        Match.objectLike({
          Name: 'SessionCookieRateLimit',
          Action: limit429,
          Statement: {
            RateBasedStatement: Match.objectLike({
              CustomKeys: [
                {
                  Cookie: {
                    Name: '__Host-session',
                    TextTransformations: [
                      { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
                      { Priority: 1, Type: 'LOWERCASE' },
                    ],
                  },
                },
              ],
            }),
          },
        }),
        Match.objectLike({ Name: 'MissingCredentials' }),
        Match.objectLike({
          Name: 'AwsKnownBadInputs',
          Statement: {
            ManagedRuleGroupStatement: Match.objectLike({ Name: 'AWSManagedRulesKnownBadInputsRuleSet' }),
          },
        }),
        Match.objectLike({
          Name: 'AwsCommonRules',
          OverrideAction: { Count: {} },
          Statement: {
            ManagedRuleGroupStatement: Match.objectLike({
              Name: 'AWSManagedRulesCommonRuleSet',
              RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
            }),
          },
        }),
      ],
    });
    synth(FULL).template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([Match.objectLike({ Name: 'AwsCommonRules', OverrideAction: { None: {} } })]),
    });
    const acl = resources('AWS::WAFv2::WebACL')[0]?.[1];
    for (const [key, response] of Object.entries(acl?.Properties.CustomResponseBodies ?? {}) as [
      string,
      Json,
    ][]) {
      if (!key.includes('RateLimited')) continue;
      expect(JSON.parse(response.Content), key).toMatchObject({
        success: false,
        error: { code: 'RATE_LIMITED' },
      });
    }
    for (const rule of acl?.Properties.Rules.filter(
      (r: Json) => r.Action?.Block.CustomResponse.ResponseCode === 429,
    ) ?? [])
      expect(rule.Action.Block.CustomResponse.ResponseHeaders, rule.Name).toEqual([
        { Name: 'Retry-After', Value: '300' },
        { Name: 'Cache-Control', Value: 'no-store' },
        { Name: 'Strict-Transport-Security', Value: 'max-age=63072000; includeSubDomains' },
      ]);
    const [, association] = resources('AWS::WAFv2::WebACLAssociation')[0] ?? [];
    expect(JSON.stringify(association?.Properties.ResourceArn)).toContain('/stages/');
  });
});

describe('infra: operations', () => {
  it('alarms on 5xx rate, function errors and throttles, DynamoDB errors and throttles, and failed deliveries', () => {
    const alarms = resources('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    // 2 per function (the docs', the console's, the sweep's and the events ones too), then: 7 of the
    // event pipeline (new dead letters twice, delivery backlog, stream stopped, iterator age, notices
    // not sent) and the sweep stopped, the last 5 abuse.
    expect(alarms).toHaveLength(1 + 2 * (routes.length + 3 + eventFunctions.length) + 2 + 1 + 7 + 5);
    const descriptions = alarms.map((a) => a.AlarmDescription);
    for (const text of [
      'API requests answered 5xx',
      'DynamoDB system errors',
      'DynamoDB throttled',
      'refused to deliver',
    ]) {
      expect(
        descriptions.some((d) => d.includes(text)),
        text,
      ).toBe(true);
    }
    for (const route of routes) {
      expect(descriptions).toContain(`${route.id}: function errors (crashes, timeouts)`);
      expect(descriptions).toContain(`${route.id}: function throttled`);
    }
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('sends alarms to an encrypted topic, and to the alarm e-mail when one is given', () => {
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
    synth(FULL).template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@acme-travel.co.uk',
    });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('alarms on abuse: wrong codes, throttled sends, code sends per hour and WAF blocks, at the stage’s thresholds', () => {
    const staging = synth({ ...FULL, stage: 'staging' }).template;
    const alarm = (name: string) =>
      Object.values(staging.findResources('AWS::CloudWatch::Alarm')).find(
        (a) => a.Properties.AlarmName === `flight-booking-staging-${name}`,
      )?.Properties;
    const filters = Object.values(staging.findResources('AWS::Logs::MetricFilter')).map((f) => f.Properties);
    const filterFor = (metric: string) =>
      filters.find((f) => f.MetricTransformations[0].MetricName === metric)?.FilterPattern;

    expect(alarm('WrongCodes')).toMatchObject({ Threshold: 20, MetricName: 'WrongCodes', Period: 300 });
    expect(alarm('RateLimitedSends')).toMatchObject({ Threshold: 40, Period: 300 });
    expect(alarm('CodeSends')).toMatchObject({ Threshold: 300, Period: 3600 });
    expect(alarm('WafBlocks')).toMatchObject({
      Threshold: 200,
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: expect.arrayContaining([{ Name: 'WebACL', Value: 'flight-booking-staging' }]),
    });
    expect(filterFor('WrongCodes')).toBe('{ ($.code = "INVALID_CODE") || ($.code = "TOO_MANY_ATTEMPTS") }');
    expect(filterFor('RateLimitedSends')).toBe('{ $.code = "RATE_LIMITED" }');
    expect(filterFor('CodeSends')).toBe('{ $.message = "code sent" }');
    staging.hasResourceProperties('AWS::WAFv2::WebACL', { Name: 'flight-booking-staging' });
  });

  it('counts failed code deliveries from the send-otp log', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.message = "code delivery failed" }',
      MetricTransformations: [Match.objectLike({ MetricName: 'CodeDeliveryFailures' })],
    });
  });

  it('never changes account-wide SMS settings from a stage (they are a one-off, README Deploy)', () => {
    for (const config of [DEV, FULL]) {
      expect(JSON.stringify(synth(config).template.toJSON())).not.toContain('SMSAttributes');
    }
  });
});

describe('infra: cdk-nag', () => {
  it.each([
    ['dev', DEV],
    ['a complete prod', FULL],
  ])('finds nothing unacknowledged in AwsSolutions and Serverless (%s)', (_case, context) => {
    const { app } = synth(context, true);
    expect(nagFindings(app)).toBe('');
  });
});

describe('infra: stages side by side in one account', () => {
  const staging = synth({ ...FULL, stage: 'staging' }).template;

  it('names the REST API and every alarm after the stage', () => {
    staging.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: 'flight-booking-staging' });
    const names = Object.values(staging.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => a.Properties.AlarmName,
    );
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(name).toMatch(/^flight-booking-staging-/);
  });

  it('counts failed deliveries per stage: every log line carries the stage, the filter and alarm use it', () => {
    staging.hasResourceProperties('AWS::Logs::MetricFilter', {
      MetricTransformations: [Match.objectLike({ Dimensions: [{ Key: 'Stage', Value: '$.stage' }] })],
    });
    staging.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'CodeDeliveryFailures',
      Dimensions: [{ Name: 'Stage', Value: 'staging' }],
    });
    for (const [, fn] of Object.entries(staging.findResources('AWS::Lambda::Function')).filter(([, f]) =>
      String(f.Properties.Description).startsWith('/api/'),
    ))
      expect(fn.Properties.Environment.Variables.STAGE).toBe('staging');
  });

  it('keeps API Gateway’s account-wide CloudWatch role when a stage is deleted', () => {
    staging.hasResource('AWS::IAM::Role', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        AssumeRolePolicyDocument: Match.objectLike({
          Statement: [Match.objectLike({ Principal: { Service: 'apigateway.amazonaws.com' } })],
        }),
      }),
    });
  });
});

describe('infra: CDK feature flags', () => {
  it('sets every currently recommended flag to its recommended value, before any stack exists', () => {
    expect(CDK_CONTEXT).toMatchObject(CURRENTLY_RECOMMENDED_FLAGS);
  });
});

describe('infra: stage configuration', () => {
  it('synthesises the dev stage in infra/stages, whatever sender the operator put there', () => {
    const dev = loadStageConfig('dev');
    expect(dev).toMatchObject({ stage: 'dev' });
    expect(() => synth(dev)).not.toThrow();
  });

  // Fixture copies of the stage files as first committed, so an operator who puts real values in
  // infra/stages/prod.json or adds staging.json (as the README says) keeps a green suite.
  it('refuses a prod file until its sender and alarm mailbox are real, naming the keys', () => {
    expect(() => loadStageConfig('prod', STAGE_FIXTURES)).toThrow(
      /infra\/stages\/prod\.json: account is an example account.*; sesFromAddress is an example address.*; alarmEmail is required for stage prod/,
    );
  });

  it('refuses a stage without a file, listing the ones there are', () => {
    expect(() => loadStageConfig('staging', STAGE_FIXTURES)).toThrow(
      /unknown stage "staging".*known: dev, prod/,
    );
    expect(() => loadStageConfig('../dev', STAGE_FIXTURES)).toThrow(/unknown stage/);
  });

  it('loads every committed stage file that is complete, and refuses the others only for their example values', () => {
    const committed = readdirSync('infra/stages').filter((name) => name.endsWith('.json'));
    for (const stage of committed.map((name) => basename(name, '.json'))) {
      try {
        loadStageConfig(stage);
      } catch (error) {
        expect(String(error)).toMatch(/is an example address|alarmEmail is required/);
      }
    }
  });

  it.each([
    [
      'a sender with a display name',
      { sesFromAddress: 'Flights <no-reply@flights.acme-travel.co.uk>' },
      'sesFromAddress',
    ],
    ['an example sender', { sesFromAddress: 'no-reply@example.com' }, 'sesFromAddress'],
    ['an example alarm mailbox', { alarmEmail: 'ops@ops.example' }, 'alarmEmail'],
    ['no alarm mailbox', { alarmEmail: undefined }, 'alarmEmail'],
    ['a sender id of 2 characters', { smsSenderId: 'FB' }, 'smsSenderId'],
    ['a sender id with a space', { smsSenderId: 'Flight Bk' }, 'smsSenderId'],
    [
      'a WAF limit under 10',
      { waf: { ...PROD_FILE.waf, authRequestsPer5Minutes: 9 } },
      'waf.authRequestsPer5Minutes',
    ],
    [
      'a session limit under 10',
      { waf: { ...PROD_FILE.waf, requestsPerSessionPer5Minutes: 5 } },
      'waf.requestsPerSessionPer5Minutes',
    ],
    [
      'an unknown common rule set mode',
      { waf: { ...PROD_FILE.waf, commonRuleSet: 'OFF' } },
      'waf.commonRuleSet',
    ],
    ['a throttle of 0', { throttle: { ratePerSecond: 0, burst: 100 } }, 'throttle.ratePerSecond'],
    ['an http origin', { corsOrigins: ['http://agents.acme-travel.co.uk'] }, 'corsOrigins.0'],
    ['an origin with a path', { corsOrigins: ['https://agents.acme-travel.co.uk/app'] }, 'corsOrigins.0'],
    ['a retention CloudWatch does not offer', { logRetentionDays: 31 }, 'logRetentionDays'],
    ['an unknown key', { smsMonthlySpendLimitUsd: 50 }, '(file)'],
  ])('refuses %s, naming the key', (_case, change, key) => {
    expect(() => parseStageConfig('prod', { ...PROD_FILE, ...change })).toThrow(
      new RegExp(`prod\\.json: .*${key.replace('.', '\\.').replace('(', '\\(').replace(')', '\\)')}`),
    );
  });

  it('lets dev keep example values and go without an alarm mailbox', () => {
    expect(() =>
      parseStageConfig('dev', { ...PROD_FILE, sesFromAddress: 'a@example.com', alarmEmail: undefined }),
    ).not.toThrow();
  });
});
