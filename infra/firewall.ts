import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnIPSet, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { PayloadTooLargeError, UnauthorizedError } from '../shared/errors.ts';
import { SESSION_COOKIE } from '../shared/http/cookies.ts';
import { TRANSPORT_SECURITY } from '../shared/http/headers.ts';
import { MAX_BODY_BYTES } from '../shared/http/json-body.ts';
import { type Route, routes } from '../shared/routes.ts';
import { ipVersionOf } from './cidr.ts';
import { corsHeaders, envelopeTemplate } from './gateway.ts';

interface FirewallProps {
  readonly stage: Stage;
  readonly stageName: string;
  readonly limits: {
    readonly authRequestsPer5Minutes: number;
    readonly requestsPerAddressPer5Minutes: number;
    readonly requestsPerSessionPer5Minutes: number;
    readonly commonRuleSet: 'COUNT' | 'BLOCK';
  };
  /** CIDR ranges refused before any other rule (validated by the stage configuration). */
  readonly blockedAddresses: readonly string[];
  /** The stage's CORS origins: with exactly one, the firewall's own answers carry CORS too. */
  readonly corsOrigins: readonly string[];
}

type Rule = Omit<CfnWebACL.RuleProperty, 'priority'>;
type Transformation = 'NONE' | 'COMPRESS_WHITE_SPACE' | 'LOWERCASE' | 'URL_DECODE' | 'NORMALIZE_PATH';
const transformations = (...types: Transformation[]) => types.map((type, priority) => ({ priority, type }));
const none = transformations('NONE');

/**
 * How both session keys are normalised before WAF counts them: HTTP lets a client write the scheme in
 * any case (`bearer`, `BEARER`) and put any number of spaces after it, and the service accepts all of
 * those; without this each spelling of one token would be a fresh WAF key with a fresh allowance.
 * Lower-casing also folds re-spellings of the token's own letters (which the service refuses) into one
 * key. A trailing space the front end keeps is the one variation left: at most two keys per token.
 */
const SESSION_KEY_TRANSFORMATIONS = transformations('COMPRESS_WHITE_SPACE', 'LOWERCASE');

/**
 * Request data WAF keeps (sampled requests, logs, rate-rule details) must never hold a live credential:
 * sampling is off on every rule, and should anyone turn it or logging on, data protection replaces
 * these headers with `REDACTED`.
 */
const PROTECTED_HEADERS = ['authorization', 'cookie'];

/** The data protection that replaces {@link PROTECTED_HEADERS} with `REDACTED` wherever WAF keeps a request. */
const PROTECTED_HEADERS_REDACTED = {
  field: { fieldType: 'SINGLE_HEADER', fieldKeys: PROTECTED_HEADERS },
  action: 'SUBSTITUTION',
  excludeRateBasedDetails: false,
  excludeRuleMatchDetails: false,
};

/** WAF regular expressions are at most 512 characters. */
const MAX_WAF_REGEX = 512;

/**
 * The paths of every route that needs a session, as one WAF regex on the end of the URI path (a REST
 * API's default endpoint puts the stage first, a custom domain its base path).
 */
function authenticatedPathPattern(table: readonly Route[] = routes): string {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // One alternative per folder, its routes' last segments inside (`/api/flights/booking/(?:create|get|…)`):
  // the same paths, short enough for WAF's limit as routes are added.
  const folders = new Map<string, string[]>();
  for (const route of table.filter((r) => r.auth)) {
    const cut = route.path.lastIndexOf('/');
    const folder = route.path.slice(0, cut + 1);
    folders.set(folder, [...(folders.get(folder) ?? []), escaped(route.path.slice(cut + 1))]);
  }
  const paths = [...folders].map(([folder, names]) =>
    names.length === 1 ? `${escaped(folder)}${names[0]}` : `${escaped(folder)}(?:${names.join('|')})`,
  );
  const pattern = `(?:${paths.join('|')})/?$`;
  if (pattern.length > MAX_WAF_REGEX)
    throw new Error(
      `the authenticated-path pattern is ${pattern.length} characters; WAF allows ${MAX_WAF_REGEX}`,
    );
  return pattern;
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: false,
});

/**
 * A WAFv2 web ACL on the API stage (docs/API.md §5), rules in this order:
 * - the stage's blocked address ranges (403, the runbook's answer to an abusive address);
 * - bodies over the API's 64 KiB limit (413), inspected in full up to 64 KB;
 * - per client address on the sign-in routes (brute force, SMS pumping across identifiers);
 * - per client address on every route, looser;
 * - per session, on the bearer token and, separately, on the session cookie (WAF skips a rate rule for
 *   requests missing its key, so each kind of credential has its own rule), both normalised;
 * - a POST to a route that needs a session, with neither credential: 401, as the function would answer;
 * - AWS's known-bad-inputs rules, and its common rule set in the stage's mode (COUNT or BLOCK).
 * Every answer is the contract's envelope, with `Cache-Control: no-store` and the stage's CORS headers.
 */
export class Firewall extends Construct {
  readonly webAcl: CfnWebACL;
  /** The web ACL's name: the dimension of its CloudWatch metrics. */
  readonly name: string;
  /** The names of the rules, in priority order: the dashboard graphs each. */
  readonly ruleNames: string[];

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    const { limits } = props;
    this.name = `flight-booking-${props.stageName}`;
    const answer = refusal(props.corsOrigins);
    const unauthorized = new UnauthorizedError();
    const tooLarge = new PayloadTooLargeError(`The body is over ${MAX_BODY_BYTES} bytes.`);

    const rules: Rule[] = [
      {
        name: 'BlockedAddresses',
        action: answer(403, 'AddressBlocked'),
        statement: {
          orStatement: {
            statements: this.blockedAddressSets(props).map((set) => ({
              ipSetReferenceStatement: { arn: set.attrArn },
            })),
          },
        },
        visibilityConfig: visibility('BlockedAddresses'),
      },
      oversizeBody(answer),
      ...rateRules(limits, answer),
      {
        name: 'MissingCredentials',
        action: answer(unauthorized.statusCode, 'Unauthorized', unauthorized.headers),
        statement: { andStatement: { statements: missingCredentials() } },
        visibilityConfig: visibility('MissingCredentials'),
      },
      ...managedRules(limits.commonRuleSet),
    ];
    this.ruleNames = rules.map((rule) => rule.name);

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('FlightBookingWebAcl'),
      // API Gateway sends WAF 16 KB of a body unless told otherwise; the API accepts 64 KiB.
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      dataProtectionConfig: { dataProtections: [PROTECTED_HEADERS_REDACTED] },
      customResponseBodies: customResponseBodies(unauthorized, tooLarge),
      rules: rules.map((rule, priority) => ({ ...rule, priority })),
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }

  /** One IP set per IP version (WAF keeps them apart), each possibly empty. */
  private blockedAddressSets(props: FirewallProps): CfnIPSet[] {
    return (['IPV4', 'IPV6'] as const).map(
      (version) =>
        new CfnIPSet(this, `Blocked${version}`, {
          name: `flight-booking-${props.stageName}-blocked-${version.toLowerCase()}`,
          description: `Refused ${version} ranges of stage ${props.stageName}, from blockedAddresses`,
          scope: 'REGIONAL',
          ipAddressVersion: version,
          addresses: props.blockedAddresses.filter((cidr) => ipVersionOf(cidr) === version),
        }),
    );
  }
}

/** What a refusing rule answers: `status`, the body named `bodyKey`, `headers`, and every answer's headers. */
type Answer = (
  status: number,
  bodyKey: string,
  headers?: Record<string, string>,
) => CfnWebACL.RuleActionProperty;

/**
 * The firewall's refusals: the status, the body, `no-store`, and the headers every deployed answer
 * carries (HSTS, the stage's CORS).
 */
const refusal =
  (corsOrigins: readonly string[]): Answer =>
  (status, bodyKey, headers = {}) => ({
    block: {
      customResponse: {
        responseCode: status,
        customResponseBodyKey: bodyKey,
        responseHeaders: Object.entries({
          ...headers,
          'Cache-Control': 'no-store',
          // The firewall's refusals are the deployed service's answers too (docs/API.md: HSTS deployed).
          ...TRANSPORT_SECURITY,
          ...corsHeaders(corsOrigins),
        }).map(([name, value]) => ({ name, value })),
      },
    },
  });

/** The rate rules: per address on the sign-in routes, per address on every route, per session (both keys). */
function rateRules(limits: FirewallProps['limits'], answer: Answer): Rule[] {
  const rateLimited = (bodyKey: string) => answer(429, bodyKey, { 'Retry-After': '300' });
  const rateRule = (
    name: string,
    limit: number,
    statement: Omit<CfnWebACL.RateBasedStatementProperty, 'limit' | 'evaluationWindowSec'>,
    bodyKey: string,
  ): Rule => ({
    name,
    action: rateLimited(bodyKey),
    statement: { rateBasedStatement: { limit, evaluationWindowSec: 300, ...statement } },
    visibilityConfig: visibility(name),
  });
  const sessionRule = (name: string, key: CfnWebACL.RateBasedStatementCustomKeyProperty) =>
    rateRule(
      name,
      limits.requestsPerSessionPer5Minutes,
      { aggregateKeyType: 'CUSTOM_KEYS', customKeys: [key] },
      'SessionRateLimited',
    );
  return [
    rateRule(
      'AuthRateLimit',
      limits.authRequestsPer5Minutes,
      {
        aggregateKeyType: 'IP',
        scopeDownStatement: {
          byteMatchStatement: {
            fieldToMatch: { uriPath: {} },
            positionalConstraint: 'CONTAINS',
            searchString: '/api/auth/',
            textTransformations: transformations('LOWERCASE'),
          },
        },
      },
      'RateLimited',
    ),
    rateRule(
      'AddressRateLimit',
      limits.requestsPerAddressPer5Minutes,
      { aggregateKeyType: 'IP' },
      'AddressRateLimited',
    ),
    sessionRule('SessionRateLimit', {
      header: { name: 'authorization', textTransformations: SESSION_KEY_TRANSFORMATIONS },
    }),
    sessionRule('SessionCookieRateLimit', {
      cookie: { name: SESSION_COOKIE, textTransformations: SESSION_KEY_TRANSFORMATIONS },
    }),
  ];
}

/** Bodies over the API's limit, inspected in full up to 64 KB: 413. */
function oversizeBody(answer: Answer): Rule {
  return {
    name: 'OversizeBody',
    action: answer(413, 'PayloadTooLarge'),
    statement: {
      sizeConstraintStatement: {
        // Bodies past the 64 KB inspection limit are oversize: MATCH counts them as too large.
        fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
        comparisonOperator: 'GT',
        size: MAX_BODY_BYTES,
        textTransformations: none,
      },
    },
    visibilityConfig: visibility('OversizeBody'),
  };
}

/** AWS's managed rules: known bad inputs, and the common rule set in the stage's mode. */
function managedRules(commonRuleSet: 'COUNT' | 'BLOCK'): Rule[] {
  return [
    {
      name: 'AwsKnownBadInputs',
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' },
      },
      visibilityConfig: visibility('AwsKnownBadInputs'),
    },
    {
      name: 'AwsCommonRules',
      // COUNT: every rule of the set only counts (see the WAF metrics) until switched to BLOCK.
      overrideAction: commonRuleSet === 'COUNT' ? { count: {} } : { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: 'AWSManagedRulesCommonRuleSet',
          // The common set blocks bodies over 8 KB; the contract allows 64 KiB (OversizeBody answers beyond).
          ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
        },
      },
      visibilityConfig: visibility('AwsCommonRules'),
    },
  ];
}

/** The bodies the refusals name, each the contract's envelope. */
function customResponseBodies(unauthorized: UnauthorizedError, tooLarge: PayloadTooLargeError) {
  return {
    RateLimited: wafBody('RATE_LIMITED', 'Too many sign-in requests from your address; try again later.'),
    AddressRateLimited: wafBody('RATE_LIMITED', 'Too many requests from your address; try again later.'),
    SessionRateLimited: wafBody('RATE_LIMITED', 'Too many requests for this session; try again later.'),
    Unauthorized: wafBody(unauthorized.code, unauthorized.message),
    PayloadTooLarge: wafBody(tooLarge.code, tooLarge.message),
    AddressBlocked: wafBody('REQUEST_REJECTED', 'Requests from your address are refused.'),
  };
}

/** A POST to a route that needs a session, with no `Authorization` header and no session cookie. */
function missingCredentials() {
  const absent = (fieldToMatch: Record<string, unknown>) => ({
    notStatement: {
      statement: {
        sizeConstraintStatement: {
          fieldToMatch,
          comparisonOperator: 'GT',
          size: 0,
          textTransformations: none,
        },
      },
    },
  });
  return [
    // Only POST reaches a function; other methods are answered 405 by the gateway, preflights pass.
    {
      byteMatchStatement: {
        fieldToMatch: { method: {} },
        positionalConstraint: 'EXACTLY',
        searchString: 'POST',
        textTransformations: none,
      },
    },
    {
      regexMatchStatement: {
        fieldToMatch: { uriPath: {} },
        regexString: authenticatedPathPattern(),
        textTransformations: transformations('URL_DECODE', 'NORMALIZE_PATH'),
      },
    },
    // `singleHeader` is untyped in CDK and passed through as written: CloudFormation's spelling.
    absent({ singleHeader: { Name: 'authorization' } }),
    // Cookies too large to inspect count as present: the function decides.
    absent({
      cookies: {
        matchPattern: { includedCookies: [SESSION_COOKIE] },
        matchScope: 'VALUE',
        oversizeHandling: 'MATCH',
      },
    }),
  ];
}

/** A firewall answer's body: the contract's envelope. WAF cannot insert a request id (the gateway never saw the request). */
const wafBody = (code: string, message: string) => ({
  contentType: 'APPLICATION_JSON',
  content: envelopeTemplate(code, message).replace('$context.requestId', 'waf'),
});
