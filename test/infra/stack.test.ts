import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#shared/routes.ts';
import { FlightBookingStack } from '../../infra/stack.ts';

let template: Template;

/** Synthesises the stack without bundling (bundling is exercised by `npm run synth`). */
function synth(stage = 'dev') {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new FlightBookingStack(app, 'Test', {
    config: {
      stage,
      sesFromAddress: 'no-reply@flights.example.com',
      smsSenderId: 'FlightBook',
      logRetention: RetentionDays.ONE_MONTH,
    },
  });
  return { stack, template: Template.fromStack(stack) };
}

/** The logical id of the function for `routeId`. */
function functionId(routeId: string): string {
  const [id] = Object.keys(template.findResources('AWS::Lambda::Function')).filter((key) =>
    key.startsWith(`Fn${routeId.replaceAll('-', '')}`),
  );
  if (!id) throw new Error(`no function for ${routeId}`);
  return id;
}

/** Every IAM statement attached to the role of the function for `routeId`. */
function statementsOf(routeId: string): { Action: string | string[]; Effect: string; Resource: unknown }[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionId(routeId)];
  const roleId = fn?.Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
    policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId),
  );
  return policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}
const actionsOf = (routeId: string) =>
  statementsOf(routeId)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => s.Action);

beforeAll(() => {
  template = synth().template;
});

describe('infra: FlightBookingStack', () => {
  it('creates one Node.js 24 arm64 function per route', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length);
    for (const route of routes) {
      const fn = template.findResources('AWS::Lambda::Function')[functionId(route.id)];
      expect(fn?.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: 512,
        Timeout: 10,
        TracingConfig: { Mode: 'Active' },
      });
      expect(fn?.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    }
  });

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
        },
      ],
      Replicas: [
        Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ],
    });
  });

  it('retains and protects the table in prod only', () => {
    const prod = synth('prod').template;
    prod.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] }),
    });
    template.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Delete' });
  });

  it('generates the signing key in Secrets Manager; the template holds no key', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
    expect(JSON.stringify(template.toJSON())).not.toContain('"SecretString"');
  });

  it('exposes exactly the route table as POST methods', () => {
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));
    expect(methods.map((m) => m.Properties.HttpMethod)).toEqual(routes.map(() => 'POST'));
    const paths = Object.values(template.findResources('AWS::ApiGateway::Resource')).map(
      (r) => r.Properties.PathPart,
    );
    for (const route of routes) expect(paths).toContain(route.path.split('/').at(-1));
  });

  it('lets send-otp send e-mail from the configured identity and SMS, and nothing else does', () => {
    const sendOtp = statementsOf('send-otp');
    expect(sendOtp).toContainEqual(
      expect.objectContaining({
        Action: 'ses:SendEmail',
        Effect: 'Allow',
        Resource: [
          expect.objectContaining({
            'Fn::Join': ['', expect.arrayContaining([':identity/no-reply@flights.example.com'])],
          }),
          expect.objectContaining({
            'Fn::Join': ['', expect.arrayContaining([':identity/flights.example.com'])],
          }),
        ],
      }),
    );
    expect(sendOtp).toContainEqual(expect.objectContaining({ Action: 'sns:Publish', Effect: 'Deny' }));
    for (const route of routes.filter((r) => r.id !== 'send-otp')) {
      expect(actionsOf(route.id).filter((a) => a.startsWith('ses:') || a.startsWith('sns:'))).toEqual([]);
    }
  });

  it('grants table actions by name, never a wildcard, and the secret only where the key is used', () => {
    for (const route of routes) {
      const actions = actionsOf(route.id);
      expect(actions.filter((a) => a.startsWith('dynamodb:') && a.includes('*'))).toEqual([]);
      expect(actions.includes('dynamodb:PutItem')).toBe(route.table === 'read-write');
      expect(actions.includes('secretsmanager:GetSecretValue')).toBe(route.grants.includes('signing-key'));
    }
  });

  it('configures send-otp for SES and SNS, never the outbox', () => {
    const fn = template.findResources('AWS::Lambda::Function')[functionId('send-otp')];
    expect(fn?.Properties.Environment.Variables).toMatchObject({
      CODE_SENDER: 'aws',
      SES_FROM_ADDRESS: 'no-reply@flights.example.com',
      SMS_SENDER_ID: 'FlightBook',
    });
    expect(JSON.stringify(template.toJSON())).not.toContain('outbox');
  });
});
