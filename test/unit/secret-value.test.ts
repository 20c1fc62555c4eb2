import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AWS_CLIENT_OPTIONS } from '#shared/aws-client-options.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { readSecretString } from '#shared/secret-value.ts';
import {
  type Answer,
  errorAnswer,
  secretAnswer,
  startSecretsManagerStandIn,
} from '#test/helpers/secrets-manager-stand-in.ts';

const VALUE = 'Yq3vR8tL1xN6pK4mW9zB2cF7hJ5sD0gA-Tu_Ei8Oo3Pa';
const NAME = 'flight-booking/test/signing-key';
/** The SDK core of the DynamoDB client a function builds (fixed local credentials, here eu-west-2). */
const core = () => createDocumentClient('http://127.0.0.1:9', 'eu-west-2').config;

const standIns: { close(): Promise<void> }[] = [];
async function standIn(script: Answer[], secretKey = 'local') {
  const server = await startSecretsManagerStandIn(secretKey, script);
  standIns.push(server);
  vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', server.url);
  return server;
}
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(standIns.splice(0).map((server) => server.close()));
});

describe('fn: readSecretString', () => {
  it('reads the value with one GetSecretValue in JSON 1.1, signed with SigV4 for secretsmanager', async () => {
    const server = await standIn([secretAnswer(NAME, VALUE)]);

    const value = await readSecretString(core(), NAME);

    expect(value).toBe(VALUE);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/', signatureValid: true });
    expect(request?.headers['x-amz-target']).toBe('secretsmanager.GetSecretValue');
    expect(request?.headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(JSON.parse(request?.body ?? '')).toEqual({ SecretId: NAME });
    expect(request?.credential).toMatch(/^local\/\d{8}\/eu-west-2\/secretsmanager\/aws4_request$/);
    expect(request?.signedHeaders).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-target']));
  });

  it('signs with the client credentials, session token included, and fails a signature made with others', async () => {
    const credentials = {
      accessKeyId: 'ASIATEST',
      secretAccessKey: 'right-secret',
      sessionToken: 'session-1',
    };
    const client = new DynamoDBClient({ ...AWS_CLIENT_OPTIONS, region: 'us-east-1', credentials });
    const server = await standIn([secretAnswer(NAME, VALUE)], 'right-secret');
    await readSecretString(client.config, NAME);
    const wrong = new DynamoDBClient({
      ...AWS_CLIENT_OPTIONS,
      region: 'us-east-1',
      credentials: { ...credentials, secretAccessKey: 'other' },
    });
    await readSecretString(wrong.config, NAME);

    expect(server.requests.map((request) => request.signatureValid)).toEqual([true, false]);
    expect(server.requests[0]?.headers['x-amz-security-token']).toBe('session-1');
    expect(server.requests[0]?.signedHeaders).toContain('x-amz-security-token');
  });

  it.each([
    [400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret."],
    [400, 'AccessDeniedException', 'User: arn:aws:sts::1:assumed-role/r/f is not authorized'],
    [400, 'DecryptionFailure', 'Secrets Manager cannot decrypt the secret'],
  ])(
    'fails on %i %s at once, naming the code and message, never retrying a 4xx',
    async (status, code, message) => {
      const server = await standIn([errorAnswer(status, code, message), secretAnswer(NAME, VALUE)]);

      const error = await readSecretString(core(), NAME).catch((e: Error) => e);

      expect(error).toMatchObject({ name: 'SecretReadError' });
      expect((error as Error).message).toBe(`Secrets Manager answered ${status} ${code}: ${message}`);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('retries throttling and 5xx like the SDK standard mode: at most 3 attempts in all', async () => {
    const throttled = await standIn([
      errorAnswer(400, 'ThrottlingException', 'Rate exceeded'),
      errorAnswer(500, 'InternalServiceError', 'oops'),
      secretAnswer(NAME, VALUE),
    ]);
    expect(await readSecretString(core(), NAME)).toBe(VALUE);
    expect(throttled.requests).toHaveLength(3);

    const failing = await standIn([errorAnswer(503, 'ServiceUnavailable', 'try later')]);
    const error = await readSecretString(core(), NAME).catch((e: Error) => e);
    expect((error as Error).message).toBe('Secrets Manager answered 503 ServiceUnavailable: try later');
    expect(failing.requests).toHaveLength(3);
  });

  it('reads the code from the x-amzn-errortype header, and never echoes a body that is not an AWS error', async () => {
    const byHeader = await standIn([
      { status: 400, body: '{}', headers: { 'x-amzn-errortype': 'AccessDeniedException:http://internal' } },
    ]);
    const denied = await readSecretString(core(), NAME).catch((e: Error) => e);
    expect((denied as Error).message).toBe('Secrets Manager answered 400 AccessDeniedException: HTTP 400');
    expect(byHeader.requests).toHaveLength(1);

    await standIn([{ status: 502, body: `<html>${VALUE}</html>`, headers: { 'content-type': 'text/html' } }]);
    const gateway = await readSecretString(core(), NAME).catch((e: Error) => e);
    expect((gateway as Error).message).toBe('Secrets Manager answered 502 HTTP502: HTTP 502');
  });

  it('retries a dropped connection, then fails naming the network error', async () => {
    const server = await standIn(['drop']);

    const error = await readSecretString(core(), NAME).catch((e: Error) => e);

    expect(error).toMatchObject({ name: 'SecretReadError' });
    expect((error as Error).message).toMatch(
      /^Secrets Manager at 127\.0\.0\.1:\d+ could not be reached \(ECONNRESET\)$/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('resolves undefined for a secret with no string value (a binary secret)', async () => {
    await standIn([{ status: 200, body: JSON.stringify({ Name: NAME, SecretBinary: 'AAEC' }) }]);

    expect(await readSecretString(core(), NAME)).toBeUndefined();
  });
});

describe("fn: readSecretString: Secrets Manager's endpoint", () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'local' };

  /** Where a read goes from the core of a DynamoDB client of `region` (and `extra` settings), answered at once. */
  async function endpointOf(region: string, extra = {}) {
    const { config } = new DynamoDBClient({ region, credentials, ...extra });
    const seen: string[] = [];
    const requestHandler = {
      handle: async (request: { protocol: string; hostname: string; port?: number }) => {
        seen.push(`${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}/`);
        return { response: { statusCode: 200, headers: {}, body: Readable.from([Buffer.from('{}')]) } };
      },
    };
    await readSecretString({ ...config, requestHandler } as unknown as typeof config, NAME);
    return seen;
  }
  const environment = (variables: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  };
  const none = {
    AWS_ENDPOINT_URL_SECRETS_MANAGER: undefined,
    AWS_ENDPOINT_URL: undefined,
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: undefined,
  };

  it('takes the endpoint variables as the SDK does, the service one first', async () => {
    const both = {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: 'http://sm.local:1',
      AWS_ENDPOINT_URL: 'http://all.local:2',
    };

    environment({ ...none, ...both });
    expect(await endpointOf('eu-west-2')).toEqual(['http://sm.local:1/']);
    environment({ ...none, AWS_ENDPOINT_URL: 'http://all.local:2' });
    expect(await endpointOf('eu-west-2')).toEqual(['http://all.local:2/']);
    environment({ ...none, ...both, AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' });
    expect(await endpointOf('eu-west-2')).toEqual(['https://secretsmanager.eu-west-2.amazonaws.com/']);
  });

  it("uses the region's partition, and FIPS when the client is set to", async () => {
    environment(none);

    expect(await endpointOf('cn-north-1')).toEqual(['https://secretsmanager.cn-north-1.amazonaws.com.cn/']);
    expect(await endpointOf('us-east-1', { useFipsEndpoint: true })).toEqual([
      'https://secretsmanager-fips.us-east-1.amazonaws.com/',
    ]);
  });
});
