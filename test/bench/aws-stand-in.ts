import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the three AWS APIs a function calls besides DynamoDB: Secrets Manager's
 * GetSecretValue (the signing key, read at init), SES's SendEmail and SNS's Publish (send-otp). It
 * answers each in its real wire format, so the functions run their deployed init and send path, with
 * the real SDK clients, pointed here by the SDK's own `AWS_ENDPOINT_URL_<SERVICE>` variables.
 */
export interface AwsStandIn {
  /** The SDK's endpoint variables that send every client here. */
  readonly env: Record<string, string>;
  /** Calls answered, by API. */
  readonly calls: Record<'GetSecretValue' | 'SendEmail' | 'Publish', number>;
  close(): Promise<void>;
}

const xml = (action: string, namespace: string) =>
  `<${action}Response xmlns="${namespace}"><${action}Result><MessageId>stand-in</MessageId></${action}Result>` +
  `<ResponseMetadata><RequestId>stand-in</RequestId></ResponseMetadata></${action}Response>`;

export async function startAwsStandIn(secret: { id: string; value: string }): Promise<AwsStandIn> {
  const calls = { GetSecretValue: 0, SendEmail: 0, Publish: 0 };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const target = request.headers['x-amz-target'];
      if (target === 'secretsmanager.GetSecretValue') {
        const asked = (JSON.parse(body) as { SecretId?: string }).SecretId;
        if (asked !== secret.id) {
          response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
          response.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'not found' }));
          return;
        }
        calls.GetSecretValue += 1;
        response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(
          JSON.stringify({
            ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${secret.id}`,
            Name: secret.id,
            SecretString: secret.value,
            VersionId: 'v1',
          }),
        );
        return;
      }
      const action = new URLSearchParams(body).get('Action');
      if (action === 'SendEmail' || action === 'Publish') {
        calls[action] += 1;
        const namespace =
          action === 'SendEmail'
            ? 'http://ses.amazonaws.com/doc/2010-12-01/'
            : 'http://sns.amazonaws.com/doc/2010-03-31/';
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.end(xml(action, namespace));
        return;
      }
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`stand-in: unexpected request ${target ?? action ?? ''}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
      AWS_ENDPOINT_URL_SES: endpoint,
      AWS_ENDPOINT_URL_SNS: endpoint,
    },
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
