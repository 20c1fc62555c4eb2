import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { documentRoute, eventFunctions, routes, sweepJob } from '#shared/routes.ts';
import { testApp } from '#test/helpers/cdk-app.ts';
import { DEVELOPMENT, type Json, PRODUCTION, resourcesOf, synthStage } from '#test/helpers/stage-files.ts';
import { FlightBookingAccountStack } from '../../infra/account-stack.ts';
import { bundling, sourceAssetHash } from '../../infra/bundling.ts';
import { parseAccountConfig } from '../../infra/stage-config.ts';

const { stack, template } = synthStage(PRODUCTION);
const policies = resourcesOf(template, 'AWS::IAM::Policy').map(([, p]) => p.Properties);

describe('infra: send-otp may text a phone number and nothing else', () => {
  it('denies publishing to every topic, in every region and account, not only the stack’s', () => {
    const denies = policies
      .flatMap((p) => p.PolicyDocument.Statement)
      .filter((s: Json) => s.Effect === 'Deny' && s.Action === 'sns:Publish');
    expect(denies).toHaveLength(1);
    expect(denies[0].Resource).toEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sns:*:*:*']],
    });
  });
});

describe('infra: cdk-nag’s wildcard finding is acknowledged where the wildcard is, and only there', () => {
  const acknowledging = (id: string) =>
    stack.node
      .findAll()
      .filter((c) =>
        c.node.metadata.some(
          (m) =>
            m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY &&
            id in (m.data as Record<string, string>),
        ),
      );
  const reasonAt = (path: string, id: string) =>
    stack.node
      .findAll()
      .find((c) => c.node.path === path)
      ?.node.metadata.find(
        (m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && id in (m.data as Json),
      )?.data[id];

  it('on each function’s own policy, with the reason for that policy', () => {
    const id = 'AwsSolutions::AwsSolutions-IAM5[Resource::*]';
    expect(
      acknowledging(id)
        .map((c) => c.node.path)
        .sort(),
    ).toEqual(
      [
        ...[...routes, documentRoute].map((r) => `Test/Route-${r.id}/Role/DefaultPolicy`),
        `Test/Job-${sweepJob.id}/Role/DefaultPolicy`,
        'Test/Console/Function/Role/DefaultPolicy',
        ...eventFunctions.map((f) => `Test/Events/Function-${f.id}/Role/DefaultPolicy`),
      ].sort(),
    );
    expect(reasonAt('Test/Route-search/Role/DefaultPolicy', id)).toMatch(
      /^X-Ray .*no resource-level permissions$/,
    );
    expect(reasonAt('Test/Route-send-otp/Role/DefaultPolicy', id)).toMatch(
      /X-Ray .*; SNS Publish to a phone number/,
    );
  });
});

describe('infra: function packages', () => {
  it('ship no source map', () => {
    expect(bundling.sourceMap).toBe(false);
  });

  it('change their asset hash when tsconfig.json or package.json changes, not only the code', () => {
    const repository = (change: Record<string, string> = {}) => {
      const root = mkdtempSync(join(tmpdir(), 'asset-hash-'));
      for (const dir of ['functions', 'shared']) cpSync(dir, join(root, dir), { recursive: true });
      for (const file of ['package-lock.json', 'openapi.json', 'tsconfig.json', 'package.json'])
        cpSync(file, join(root, file));
      for (const [file, text] of Object.entries(change)) writeFileSync(join(root, file), text);
      return root;
    };
    const entry = 'functions/flights/search.ts';
    const base = sourceAssetHash(repository(), entry);

    expect(sourceAssetHash(repository(), entry)).toBe(base);
    expect(
      sourceAssetHash(repository({ 'tsconfig.json': '{"compilerOptions":{"target":"es2020"}}' }), entry),
    ).not.toBe(base);
    expect(sourceAssetHash(repository({ 'package.json': '{"type":"commonjs"}' }), entry)).not.toBe(base);
    const extra = repository();
    mkdirSync(join(extra, 'shared', 'new'), { recursive: true });
    writeFileSync(join(extra, 'shared', 'new', 'file.ts'), 'export const x = 1;\n');
    expect(sourceAssetHash(extra, entry)).not.toBe(base);
  });
});

describe('infra: API Gateway', () => {
  it('marks every answer it makes itself no-store, the default 4xx and 5xx included', () => {
    const responses = resourcesOf(template, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => r.Properties);
    expect(responses.map((r) => r.ResponseType)).toEqual(
      expect.arrayContaining(['DEFAULT_4XX', 'DEFAULT_5XX']),
    );
    for (const response of responses)
      expect(
        response.ResponseParameters?.['gatewayresponse.header.Cache-Control'],
        response.ResponseType,
      ).toBe("'no-store'");
  });

  it('says HSTS on every answer it makes itself: its refusals and the 405s of the API and the console', () => {
    const hsts = "'max-age=63072000; includeSubDomains'";
    const responses = resourcesOf(template, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => r.Properties);
    const refusals = resourcesOf(template, 'AWS::ApiGateway::Method')
      .map(([, m]) => m.Properties)
      .filter((m) => m.HttpMethod === 'ANY' && m.Integration?.Type === 'MOCK');

    expect(responses.length).toBeGreaterThanOrEqual(8);
    for (const response of responses)
      expect(
        response.ResponseParameters?.['gatewayresponse.header.Strict-Transport-Security'],
        response.ResponseType,
      ).toBe(hsts);
    expect(refusals.length).toBeGreaterThan(routes.length);
    for (const method of refusals) {
      expect(method.Integration.IntegrationResponses[0].ResponseParameters).toMatchObject({
        'method.response.header.Strict-Transport-Security': hsts,
      });
      expect(method.MethodResponses[0].ResponseParameters).toMatchObject({
        'method.response.header.Strict-Transport-Security': true,
      });
    }
  });

  it('creates the execution log group before the stage that writes into it', () => {
    const [[groupId] = []] = resourcesOf(template, 'AWS::Logs::LogGroup').filter(([, g]) =>
      JSON.stringify(g.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    );
    const [[, stage] = ['', {}]] = resourcesOf(template, 'AWS::ApiGateway::Stage');
    expect(groupId).toBeDefined();
    expect(stage.DependsOn).toContain(groupId);
  });

  it('logs integration latency and status, the error type, the firewall’s verdict and the trace id', () => {
    const [[, stage] = ['', {}]] = resourcesOf(template, 'AWS::ApiGateway::Stage');
    const line = stage.Properties.AccessLogSetting.Format as string;
    // Rendered as API Gateway would: every variable replaced by a value, or '-' when it has none.
    const rendered = JSON.parse(line.replace(/\$context\.[A-Za-z.]+/g, '-'));
    expect(Object.keys(rendered)).toEqual(
      expect.arrayContaining([
        'requestId',
        'ip',
        'status',
        'integrationLatency',
        'integrationStatus',
        'responseLatency',
        'errorType',
        'wafStatus',
        'xrayTraceId',
      ]),
    );
    expect(line).toContain('"integrationLatency":"$context.integrationLatency"');
    expect(line).toContain('"errorType":"$context.error.responseType"');
    expect(line).toContain('"xrayTraceId":"$context.xrayTraceId"');
  });
});

describe('infra: the account stack', () => {
  it('gives the log group of delivered SMS (sampled, with phone numbers) a retention, as it does failures', () => {
    const sms = {
      monthlySpendLimitUsd: 50,
      successSamplingPercent: 10,
      logRetentionDays: 30,
      alarmEmail: 'ops@acme-travel.co.uk',
    };
    const account = Template.fromStack(
      new FlightBookingAccountStack(testApp(), 'Account', { sms: parseAccountConfig({ sms }) }),
    );
    const groups = resourcesOf(account, 'AWS::Logs::LogGroup').map(([, g]) => g.Properties);
    const named = (suffix: string) =>
      groups.find((g) =>
        JSON.stringify(g.LogGroupName ?? '').endsWith(`/DirectPublishToPhoneNumber${suffix}"]]}`),
      );
    expect(named('')?.RetentionInDays).toBe(30);
    expect(named('/Failure')?.RetentionInDays).toBe(30);
  });
});

describe('infra: retention in the committed dev stage', () => {
  it('keeps every log group of the stack for the stage’s period, none forever', () => {
    for (const [, group] of resourcesOf(synthStage(DEVELOPMENT).template, 'AWS::Logs::LogGroup'))
      expect(group.Properties.RetentionInDays).toBe(30);
  });
});
