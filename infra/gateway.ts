import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  type IResource,
  MockIntegration,
  PassthroughBehavior,
  ResponseType,
  type RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { THROTTLED_MESSAGE } from '../shared/errors.ts';
import { TRANSPORT_SECURITY } from '../shared/http/headers.ts';
import { ROUTE_METHOD } from '../shared/routes.ts';

/**
 * The contract's error envelope as an API Gateway template; the request id comes from the gateway.
 * `message` is text, or `{ quotedVariable }`: a gateway variable that is already a quoted JSON string
 * (`$context.error.messageString` is `"Forbidden"`, quotes included), inserted as it is — quoting it
 * again would answer `""Forbidden""`, which is not JSON.
 */
export function envelopeTemplate(code: string, message: string | { quotedVariable: string }): string {
  const placeholder = '__quoted_message__';
  const body = JSON.stringify({
    success: false,
    error: {
      code,
      message: typeof message === 'string' ? message : placeholder,
      request_id: '$context.requestId',
    },
  });
  return typeof message === 'string' ? body : body.replace(`"${placeholder}"`, message.quotedVariable);
}

const json = (template: string) => ({ 'application/json': template });

/** What every answer the gateway makes itself carries, as header mapping values (quoted literals). */
const GATEWAY_HEADERS = {
  'Cache-Control': "'no-store'",
  // HSTS like the functions' own answers (shared/http/headers.ts): every answer here is HTTPS.
  ...Object.fromEntries(Object.entries(TRANSPORT_SECURITY).map(([name, value]) => [name, `'${value}'`])),
};

/**
 * The access log line, one JSON object per request: API Gateway's standard fields, plus what tells
 * where time and failures went (integration latency and status, the gateway's error type, the
 * firewall's verdict) and the X-Ray trace id that leads to the request's trace and function log lines.
 */
export function accessLogFormat(): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: AccessLogField.contextRequestId(),
      ip: AccessLogField.contextIdentitySourceIp(),
      caller: AccessLogField.contextIdentityCaller(),
      user: AccessLogField.contextIdentityUser(),
      requestTime: AccessLogField.contextRequestTime(),
      httpMethod: AccessLogField.contextHttpMethod(),
      resourcePath: AccessLogField.contextResourcePath(),
      status: AccessLogField.contextStatus(),
      protocol: AccessLogField.contextProtocol(),
      responseLength: AccessLogField.contextResponseLength(),
      responseLatency: AccessLogField.contextResponseLatency(),
      integrationLatency: AccessLogField.contextIntegrationLatency(),
      integrationStatus: AccessLogField.contextIntegrationStatus(),
      errorType: AccessLogField.contextErrorResponseType(),
      wafStatus: AccessLogField.contextWafStatus(),
      xrayTraceId: AccessLogField.contextXrayTraceId(),
    }),
  );
}

/**
 * Answers API Gateway produces itself, before any function runs, in the contract's envelope. An unknown
 * path reaches a REST API as MISSING_AUTHENTICATION_TOKEN (403) and is answered 404 NOT_FOUND.
 */
export function addGatewayResponses(api: RestApi, corsOrigins: readonly string[] = []): void {
  const cors = gatewayCorsHeaders(corsOrigins);
  const responses: [string, ResponseType, string, string, string, Record<string, string>?][] = [
    [
      'MissingToken',
      ResponseType.MISSING_AUTHENTICATION_TOKEN,
      '404',
      'NOT_FOUND',
      'No endpoint at this path.',
    ],
    ['NotFound', ResponseType.RESOURCE_NOT_FOUND, '404', 'NOT_FOUND', 'No endpoint at this path.'],
    ['TooLarge', ResponseType.REQUEST_TOO_LARGE, '413', 'PAYLOAD_TOO_LARGE', 'The body is too large.'],
    [
      'MediaType',
      ResponseType.UNSUPPORTED_MEDIA_TYPE,
      '415',
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the body as JSON with Content-Type: application/json.',
    ],
    ['Throttled', ResponseType.THROTTLED, '429', 'RATE_LIMITED', THROTTLED_MESSAGE, { 'Retry-After': "'1'" }],
    [
      'Quota',
      ResponseType.QUOTA_EXCEEDED,
      '429',
      'RATE_LIMITED',
      'Request quota exceeded.',
      { 'Retry-After': "'60'" },
    ],
  ];
  for (const [id, type, statusCode, code, message, headers] of responses) {
    api.addGatewayResponse(id, {
      type,
      statusCode,
      templates: json(envelopeTemplate(code, message)),
      responseHeaders: { ...GATEWAY_HEADERS, ...cors, ...headers },
    });
  }
  // Anything else the gateway refuses keeps its status; the code says it was refused before the API ran.
  api.addGatewayResponse('Default4xx', {
    type: ResponseType.DEFAULT_4XX,
    responseHeaders: { ...GATEWAY_HEADERS, ...cors },
    templates: json(envelopeTemplate('REQUEST_REJECTED', { quotedVariable: '$context.error.messageString' })),
  });
  api.addGatewayResponse('Default5xx', {
    type: ResponseType.DEFAULT_5XX,
    responseHeaders: { ...GATEWAY_HEADERS, ...cors },
    templates: json(envelopeTemplate('INTERNAL_ERROR', 'Something went wrong on our side.')),
  });
}

/**
 * CORS headers on the answers the gateway makes itself, so a browser client on the allowed origin can
 * read them too. A gateway response cannot choose among several origins (it can only echo whatever
 * `Origin` came, which would allow every site), so with more than one allowed origin they go without;
 * the functions' own answers always carry CORS for an allowed origin.
 */
function gatewayCorsHeaders(origins: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(corsHeaders(origins)).map(([name, value]) => [name, `'${value}'`]),
  );
}

/**
 * The CORS headers of an answer made without seeing the request's `Origin` (the gateway's own, the
 * firewall's): only with exactly one allowed origin, for the reason above.
 */
export function corsHeaders(origins: readonly string[]): Record<string, string> {
  if (origins.length !== 1 || !origins[0]) return {};
  return {
    'Access-Control-Allow-Origin': origins[0],
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

/**
 * Any method but `allow` on a path (POST on a route's): 405 METHOD_NOT_ALLOWED with `Allow`, answered
 * by the gateway.
 */
export function addMethodNotAllowed(resource: IResource, allow: string = ROUTE_METHOD): void {
  resource.addMethod(
    'ANY',
    new MockIntegration({
      passthroughBehavior: PassthroughBehavior.NEVER,
      requestTemplates: json('{"statusCode": 405}'),
      integrationResponses: [
        {
          statusCode: '405',
          responseTemplates: json(envelopeTemplate('METHOD_NOT_ALLOWED', `Use ${allow} for this path.`)),
          responseParameters: {
            'method.response.header.Allow': `'${allow}'`,
            ...Object.fromEntries(
              Object.entries(GATEWAY_HEADERS).map(([name, value]) => [
                `method.response.header.${name}`,
                value,
              ]),
            ),
          },
        },
      ],
    }),
    {
      methodResponses: [
        {
          statusCode: '405',
          responseParameters: {
            'method.response.header.Allow': true,
            ...Object.fromEntries(
              Object.keys(GATEWAY_HEADERS).map((name) => [`method.response.header.${name}`, true]),
            ),
          },
        },
      ],
    },
  );
}

/**
 * The operator's domain for the stage: the API and the console at its root (the console's page needs
 * no stage prefix there: shared/console/lambda.ts), TLS 1.2 at least, with the ACM certificate the
 * stage file names. What DNS must point at it: the alias target and its hosted zone.
 */
export function addCustomDomain(
  api: RestApi,
  domain: { readonly name: string; readonly certificateArn: string },
): { url: string; target: string; hostedZoneId: string } {
  const custom = api.addDomainName('CustomDomain', {
    domainName: domain.name,
    certificate: Certificate.fromCertificateArn(api, 'CustomDomainCertificate', domain.certificateArn),
    endpointType: EndpointType.REGIONAL,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  return {
    url: `https://${domain.name}/`,
    target: custom.domainNameAliasDomainName,
    hostedZoneId: custom.domainNameAliasHostedZoneId,
  };
}
