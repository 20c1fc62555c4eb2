import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in answers one request with: a status and a body, or a dropped connection. */
export type Answer = { status: number; body: string; headers?: Record<string, string> } | 'drop';

/** One request as the stand-in saw it, with its SigV4 signature checked. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** The signature recomputed by hand from the request and the stand-in's credentials matched. */
  readonly signatureValid: boolean;
  /** `<access key>/<date>/<region>/<service>/aws4_request`. */
  readonly credential: string;
  readonly signedHeaders: readonly string[];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * The AWS SigV4 signature of a request, recomputed by hand (not with the SDK's signer) from what
 * arrived: the canonical request of its signed headers and body, the string to sign, the derived key.
 */
function expectedSignature(request: IncomingMessage, body: string, secretKey: string, seen: SeenRequest) {
  const [, date = '', region = '', service = ''] = seen.credential.split('/');
  const amzDate = String(request.headers['x-amz-date']);
  const canonicalHeaders = seen.signedHeaders
    .map((name) => `${name}:${String(request.headers[name]).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const [path = '/', query = ''] = (request.url ?? '/').split('?');
  const canonical = ['POST', path, query, canonicalHeaders, seen.signedHeaders.join(';'), sha256(body)];
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical.join('\n'))].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

function seenRequest(request: IncomingMessage, body: string, secretKey: string): SeenRequest {
  const authorization = String(request.headers.authorization ?? '');
  const field = (name: string) => new RegExp(`${name}=([^,\\s]+)`).exec(authorization)?.[1] ?? '';
  const seen = {
    method: request.method ?? '',
    path: request.url ?? '',
    headers: request.headers,
    body,
    signatureValid: false,
    credential: field('Credential'),
    signedHeaders: field('SignedHeaders').split(';'),
  };
  const valid =
    authorization.startsWith('AWS4-HMAC-SHA256 ') &&
    field('Signature') === expectedSignature(request, body, secretKey, seen);
  return { ...seen, signatureValid: valid };
}

/**
 * A local Secrets Manager that checks every request's SigV4 signature against `secretKey` and answers
 * from a script, one answer per request (the last one repeats): GetSecretValue's JSON 1.1 answers and
 * error shapes, or a dropped connection.
 */
export async function startSecretsManagerStandIn(secretKey: string, script: Answer[]) {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push(seenRequest(request, body, secretKey));
      const answer = script[Math.min(requests.length, script.length) - 1] ?? 'drop';
      if (answer === 'drop') return void request.socket.destroy();
      const headers = { 'content-type': 'application/x-amz-json-1.1', ...answer.headers };
      response.writeHead(answer.status, headers).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** GetSecretValue's answer for a string secret. */
export const secretAnswer = (name: string, value: string): Answer => ({
  status: 200,
  body: JSON.stringify({
    ARN: `arn:aws:secretsmanager:eu-west-2:000000000000:secret:${name}`,
    Name: name,
    SecretString: value,
    VersionId: 'v1',
  }),
});

/** A Secrets Manager error in its JSON 1.1 shape (`__type` with the service's namespace, `message`). */
export const errorAnswer = (status: number, code: string, message: string): Answer => ({
  status,
  body: JSON.stringify({ __type: `com.amazonaws.secretsmanager#${code}`, message }),
});
