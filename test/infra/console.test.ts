import { describe, expect, it } from 'vitest';
import { isScreenPath } from '#shared/console/serve.ts';
import { writeFixtureConsoleBuild } from '#test/helpers/console-build.ts';
import { CONSOLE_RESOURCES, CONSOLE_SCREENS } from '#test/helpers/console-resources.ts';
import {
  apiMethods,
  type Json,
  PRODUCTION,
  resourcesOf,
  roleStatements,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { consoleFunction } from '../../infra/console.ts';

const { template } = synthStage(PRODUCTION);

const methods = () => apiMethods(template);

function consoleFunctionOf(t = template): [string, Json] {
  const found = resourcesOf(t, 'AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Description === `${consoleFunction.id} (flight booking)`,
  );
  if (!found) throw new Error('no console function');
  return found;
}

const [consoleId, consoleFn] = consoleFunctionOf();

/** The one resource of `type` in the template. */
function only(type: string): [string, Json] {
  const all = resourcesOf(template, type);
  expect(all, type).toHaveLength(1);
  return all[0] ?? ['', {}];
}
const invokes = (integration: Json) => JSON.stringify(integration.Uri ?? '').includes(consoleId);

describe('infra: the console, served through the API', () => {
  it('answers GET and HEAD from the console function at each screen address, one booking’s and the assets', () => {
    const served = methods().filter((m) => m.integration.Type === 'AWS_PROXY' && invokes(m.integration));

    expect(served.map((m) => `${m.method} ${m.path}`).sort()).toEqual(
      CONSOLE_RESOURCES.flatMap((path) => [`GET ${path}`, `HEAD ${path}`]).sort(),
    );
  });

  it('reaches every address docs/console.md lists, and each is a screen address of the serving rules', () => {
    // The first test holds the API to CONSOLE_RESOURCES, built from these addresses.
    for (const address of [...CONSOLE_SCREENS, '/bookings/bkg_01KB2Z7Y3Q8W9X0V1T2S3R4P5N'])
      expect(isScreenPath(address), address).toBe(true);
  });

  it('answers any other method there 405 from the gateway, with Allow: GET, HEAD', () => {
    const refused = methods().filter((m) => m.method === 'ANY' && CONSOLE_RESOURCES.includes(m.path));

    expect(refused.map((m) => m.path).sort()).toEqual([...CONSOLE_RESOURCES].sort());
    for (const { integration } of refused) {
      expect(integration.Type).toBe('MOCK');
      expect(integration.IntegrationResponses[0]).toMatchObject({
        StatusCode: '405',
        ResponseParameters: { 'method.response.header.Allow': "'GET, HEAD'" },
      });
      expect(integration.IntegrationResponses[0].ResponseTemplates['application/json']).toContain(
        '"code":"METHOD_NOT_ALLOWED"',
      );
    }
  });

  it('lets the API invoke the function through one permission, and gives the function logs and traces only', () => {
    const permissions = resourcesOf(template, 'AWS::Lambda::Permission').filter(([, p]) =>
      JSON.stringify(p.Properties.FunctionName).includes(consoleId),
    );

    expect(permissions).toHaveLength(1);
    expect(permissions[0]?.[1].Properties.Principal).toBe('apigateway.amazonaws.com');
    expect(new Set(roleStatements(template, consoleFn).flatMap((s) => [s.Action].flat()))).toEqual(
      new Set([
        'logs:CreateLogStream',
        'logs:PutLogEvents',
        'xray:PutTraceSegments',
        'xray:PutTelemetryRecords',
      ]),
    );
    expect(consoleFn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
    expect(consoleFn.Properties.Environment).toBeUndefined();
  });

  it('deploys a new bundle when a file of the build changes (synth.test.ts: not when the output folder does)', () => {
    const changed = writeFixtureConsoleBuild({ 'assets/app-7D2C9F04.js': 'console.log(2);' });
    const code = consoleFunctionOf(synthStage(PRODUCTION, false, changed).template)[1].Properties.Code;

    expect(code.S3Key).toMatch(/^[0-9a-f]{64}\.zip$/);
    expect(code.S3Key).not.toBe(consoleFn.Properties.Code.S3Key);
  });

  it('sits behind the stage’s web ACL with every other path', () => {
    const [apiId] = only('AWS::ApiGateway::RestApi');
    const [stageId, stage] = only('AWS::ApiGateway::Stage');
    const [, association] = only('AWS::WAFv2::WebACLAssociation');
    const [aclId] = only('AWS::WAFv2::WebACL');

    expect(stage.Properties.RestApiId).toEqual({ Ref: apiId });
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`"Ref":"${apiId}"`);
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`"Ref":"${stageId}"`);
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    for (const method of resourcesOf(template, 'AWS::ApiGateway::Method'))
      expect(method[1].Properties.RestApiId).toEqual({ Ref: apiId });
  });

  it('gzips answers of 1 KiB and more, and serves every console file as text (no binary media types)', () => {
    const [, api] = only('AWS::ApiGateway::RestApi');

    expect(api.Properties.MinimumCompressionSize).toBe(1024);
    expect(api.Properties.BinaryMediaTypes).toBeUndefined();
  });

  it('alarms on the console function’s errors and throttles, like every function', () => {
    const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    for (const [name, metric] of [
      ['console-Errors', 'Errors'],
      ['console-Throttles', 'Throttles'],
    ]) {
      const alarm = alarms.find((a) => a.AlarmName === `flight-booking-prod-${name}`);
      expect(alarm, name).toMatchObject({ MetricName: metric, Namespace: 'AWS/Lambda', Threshold: 1 });
      expect(alarm?.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: consoleId } }]);
      expect(alarm?.AlarmActions).toHaveLength(1);
    }
  });
});
