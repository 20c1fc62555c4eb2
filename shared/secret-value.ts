import type { DynamoDBClientResolvedConfig } from '@aws-sdk/client-dynamodb';
import { awsEndpointFunctions } from '@aws-sdk/core/client';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest, RetryErrorType, RetryStrategyV2 } from '@smithy/types';

/**
 * What a Secrets Manager read borrows from the SDK client a function already built (the DynamoDB
 * client's resolved `config`): its credential chain, region, hash for SigV4, HTTP handler (with its
 * connection and request deadlines), response reader and retry strategy. One GetSecretValue through
 * these costs no second client: @aws-sdk/client-secrets-manager is 27 KB and ~20 ms of import per cold
 * start for one call (docs/decisions.md, Cold start and packages).
 */
export type SdkCore = Pick<
  DynamoDBClientResolvedConfig,
  | 'credentials'
  | 'region'
  | 'sha256'
  | 'requestHandler'
  | 'streamCollector'
  | 'retryStrategy'
  | 'systemClockOffset'
  | 'useFipsEndpoint'
  | 'useDualstackEndpoint'
>;

/** A secret that could not be read. The message names the problem, never the secret's value. */
class SecretReadError extends Error {
  override name = 'SecretReadError';
}

/** One failed attempt, shaped as the SDK's retry rules read an error (`name`, `code`, status). */
interface AttemptFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/**
 * Secrets Manager's endpoint as the SDK resolves it: `AWS_ENDPOINT_URL_SECRETS_MANAGER`, else
 * `AWS_ENDPOINT_URL` (neither when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true`), else the region's
 * endpoint in its partition (FIPS and dual-stack as the client's settings say). The shared config
 * file's `endpoint_url` is not read: a Lambda function has none.
 */
async function secretsManagerEndpoint(core: SdkCore): Promise<URL> {
  const env = process.env;
  const configured =
    env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === 'true'
      ? undefined
      : env.AWS_ENDPOINT_URL_SECRETS_MANAGER || env.AWS_ENDPOINT_URL;
  if (configured) return new URL(configured);
  const region = await core.region();
  const partition = awsEndpointFunctions.partition?.(region) as {
    dnsSuffix: string;
    dualStackDnsSuffix: string;
  };
  const fips = (await core.useFipsEndpoint()) ? '-fips' : '';
  const suffix = (await core.useDualstackEndpoint()) ? partition.dualStackDnsSuffix : partition.dnsSuffix;
  return new URL(`https://secretsmanager${fips}.${region}.${suffix}`);
}

/** GetSecretValue in Secrets Manager's JSON 1.1 protocol, signed with SigV4 for `secretsmanager`. */
async function signedRequest(core: SdkCore, endpoint: URL, secretId: string): Promise<HttpRequest> {
  const body = JSON.stringify({ SecretId: secretId });
  const request: HttpRequest = {
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    ...(endpoint.port && { port: Number(endpoint.port) }),
    path: endpoint.pathname,
    query: {},
    headers: {
      host: endpoint.host,
      'content-type': 'application/x-amz-json-1.1',
      'content-length': String(Buffer.byteLength(body)),
      'x-amz-target': 'secretsmanager.GetSecretValue',
    },
    body,
  };
  const region = await core.region();
  const signer = new SignatureV4({
    credentials: core.credentials,
    region,
    service: 'secretsmanager',
    sha256: core.sha256,
  });
  return signer.sign(request, {
    signingDate: new Date(Date.now() + core.systemClockOffset),
  }) as Promise<HttpRequest>;
}

/** A JSON object from a body, or an empty one: an error body may be anything a proxy sends. */
function jsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The error of a non-2xx answer, read as the SDK reads JSON 1.1 errors: the code from `__type` (or
 * `code`, or the `x-amzn-errortype` header) without its namespace (`…#Code`) or suffix (`Code:…`), and
 * Secrets Manager's `message` (or `Message`), cut to one short line.
 */
function httpFailure(status: number, headers: Record<string, string>, text: string): AttemptFailure {
  const body = jsonObject(text);
  const raw = String(body.__type ?? body.code ?? headers['x-amzn-errortype'] ?? `HTTP${status}`);
  const name = raw.split(',')[0]?.split(':')[0]?.split('#').at(-1) || `HTTP${status}`;
  const said = body.message ?? body.Message;
  const message = typeof said === 'string' ? said.replace(/\s+/g, ' ').slice(0, 200) : `HTTP ${status}`;
  return { name, message, $metadata: { httpStatusCode: status } };
}

/** One attempt: the secret's string, or the attempt's failure (thrown). */
async function getSecretString(core: SdkCore, endpoint: URL, secretId: string): Promise<string | undefined> {
  const { response } = await core.requestHandler.handle(await signedRequest(core, endpoint, secretId));
  const text = Buffer.from(await core.streamCollector(response.body)).toString('utf8');
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw httpFailure(response.statusCode, response.headers, text);
  }
  const secret = jsonObject(text).SecretString;
  return typeof secret === 'string' ? secret : undefined;
}

/** The SDK's classification of a failed attempt, which its retry strategy decides on (4xx: no retry). */
function retryErrorType(failure: AttemptFailure): RetryErrorType {
  const error = failure as Parameters<typeof isThrottlingError>[0];
  if (isThrottlingError(error)) return 'THROTTLING';
  if (isTransientError(error)) return 'TRANSIENT';
  return isServerError(error) ? 'SERVER_ERROR' : 'CLIENT_ERROR';
}

/** What a final failure says: Secrets Manager's error code and message, or the network error's code. */
function describe(failure: AttemptFailure, endpoint: URL): string {
  const status = failure.$metadata?.httpStatusCode;
  if (status !== undefined) return `Secrets Manager answered ${status} ${failure.name}: ${failure.message}`;
  return `Secrets Manager at ${endpoint.host} could not be reached (${failure.code ?? failure.name})`;
}

/**
 * Reads a secret's string value with one signed GetSecretValue, retried as the client's own retry
 * strategy retries (standard mode, `maxAttempts` 3: throttling, 5xx and network errors with jittered
 * back-off; never a 4xx). Resolves undefined for a secret with no string value (a binary secret).
 *
 * @example const token = await readSecretString(ctx.db.config, 'flight-booking/prod/duffel-token');
 */
export async function readSecretString(core: SdkCore, secretId: string): Promise<string | undefined> {
  const endpoint = await secretsManagerEndpoint(core);
  const strategy = (await core.retryStrategy()) as RetryStrategyV2;
  let token = await strategy.acquireInitialRetryToken('secretsmanager');
  for (;;) {
    try {
      const secret = await getSecretString(core, endpoint, secretId);
      strategy.recordSuccess(token);
      return secret;
    } catch (error) {
      const failure = error as AttemptFailure;
      token = await strategy
        .refreshRetryTokenForRetry(token, { errorType: retryErrorType(failure) })
        .catch(() => Promise.reject(new SecretReadError(describe(failure, endpoint))));
    }
  }
}
