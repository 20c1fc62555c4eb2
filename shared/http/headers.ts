/**
 * HTTP Strict Transport Security (RFC 6797): browsers reach this host over HTTPS only, for two years,
 * its subdomains too. Sent by deployed functions only, whose every answer leaves API Gateway over
 * HTTPS (its own answers carry it too: infra/gateway.ts). `npm start` serves plain HTTP on
 * 127.0.0.1, where browsers ignore the header (§8.1) — and where, should a developer ever put TLS in
 * front of it, it would pin 127.0.0.1 or localhost to HTTPS for every other local server for two years.
 */
export const TRANSPORT_SECURITY = { 'Strict-Transport-Security': 'max-age=63072000; includeSubDomains' };

/** {@link TRANSPORT_SECURITY} in a deployed function (Lambda sets `AWS_LAMBDA_FUNCTION_NAME`), nothing locally. */
export const transportSecurity = (env: NodeJS.ProcessEnv = process.env): Record<string, string> =>
  env.AWS_LAMBDA_FUNCTION_NAME ? TRANSPORT_SECURITY : {};

/** Header maps as API Gateway delivers them: names in any case, values possibly absent. */
export type HeaderMap = Record<string, string | undefined> | null | undefined;

/** The value of header `name`, matched case-insensitively. */
export function readHeader(headers: HeaderMap, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/**
 * Every value of header `name`, matched case-insensitively: API Gateway's `multiValueHeaders` when it
 * has the header (each field the client sent), else the single joined value of `headers`.
 */
export function readHeaderValues(
  event: { headers: HeaderMap; multiValueHeaders?: Record<string, string[] | undefined> | null },
  name: string,
): string[] {
  const wanted = name.toLowerCase();
  const values = Object.entries(event.multiValueHeaders ?? {})
    .filter(([key]) => key.toLowerCase() === wanted)
    .flatMap(([, list]) => list ?? []);
  if (values.length > 0) return values;
  const joined = readHeader(event.headers, name);
  return joined === undefined ? [] : [joined];
}
