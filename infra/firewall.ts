import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { SESSION_COOKIE } from '../shared/http/cookies.ts';
import { envelopeTemplate } from './gateway.ts';

export interface FirewallProps {
  readonly stage: Stage;
  readonly stageName: string;
  readonly limits: {
    readonly authRequestsPer5Minutes: number;
    readonly requestsPerAddressPer5Minutes: number;
    readonly requestsPerSessionPer5Minutes: number;
    readonly commonRuleSet: 'COUNT' | 'BLOCK';
  };
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** WAF's answer for each rate rule: 429 in the contract's envelope, with `Retry-After`. */
const rateLimited = (bodyKey: string) => ({
  block: {
    customResponse: {
      responseCode: 429,
      customResponseBodyKey: bodyKey,
      responseHeaders: [{ name: 'Retry-After', value: '300' }],
    },
  },
});

const body = (message: string) => ({
  contentType: 'APPLICATION_JSON',
  // WAF cannot insert the request id: the gateway never saw the request.
  content: envelopeTemplate('RATE_LIMITED', message).replace('$context.requestId', 'waf'),
});

const none = [{ priority: 0, type: 'NONE' }];

/**
 * A WAFv2 web ACL on the API stage (docs/API.md §5):
 * - per client address on the sign-in routes (brute force, SMS pumping across identifiers);
 * - per client address on every route, looser;
 * - per session, aggregated on the bearer token and, separately, on the session cookie (WAF skips a
 *   rate rule for requests missing its key, so each kind of credential has its own rule), so that one
 *   client cannot spend the stage throttle meant for every agency;
 * - AWS's known-bad-inputs rules, and its common rule set in the stage's mode (COUNT or BLOCK).
 * Every rate rule answers 429 in the contract's envelope with `Retry-After`.
 */
export class Firewall extends Construct {
  readonly webAcl: CfnWebACL;
  /** The web ACL's name: the dimension of its CloudWatch metrics. */
  readonly name: string;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    const { limits } = props;
    this.name = `flight-booking-${props.stageName}`;
    const sessionRule = (name: string, priority: number, key: Record<string, unknown>) => ({
      name,
      priority,
      action: rateLimited('SessionRateLimited'),
      statement: {
        rateBasedStatement: {
          limit: limits.requestsPerSessionPer5Minutes,
          evaluationWindowSec: 300,
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [key],
        },
      },
      visibilityConfig: visibility(name),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('FlightBookingWebAcl'),
      customResponseBodies: {
        RateLimited: body('Too many sign-in requests from your address; try again later.'),
        AddressRateLimited: body('Too many requests from your address; try again later.'),
        SessionRateLimited: body('Too many requests for this session; try again later.'),
      },
      rules: [
        {
          name: 'AuthRateLimit',
          priority: 0,
          action: rateLimited('RateLimited'),
          statement: {
            rateBasedStatement: {
              limit: limits.authRequestsPer5Minutes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'CONTAINS',
                  searchString: '/api/auth/',
                  textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
                },
              },
            },
          },
          visibilityConfig: visibility('AuthRateLimit'),
        },
        {
          name: 'AddressRateLimit',
          priority: 1,
          action: rateLimited('AddressRateLimited'),
          statement: {
            rateBasedStatement: {
              limit: limits.requestsPerAddressPer5Minutes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
            },
          },
          visibilityConfig: visibility('AddressRateLimit'),
        },
        sessionRule('SessionRateLimit', 2, { header: { name: 'authorization', textTransformations: none } }),
        sessionRule('SessionCookieRateLimit', 3, {
          cookie: { name: SESSION_COOKIE, textTransformations: none },
        }),
        {
          name: 'AwsKnownBadInputs',
          priority: 4,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' },
          },
          visibilityConfig: visibility('AwsKnownBadInputs'),
        },
        {
          name: 'AwsCommonRules',
          priority: 5,
          // COUNT: every rule of the set only counts (see the WAF metrics) until switched to BLOCK.
          overrideAction: limits.commonRuleSet === 'COUNT' ? { count: {} } : { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // The common set blocks bodies over 8 KB; the contract allows 64 KiB and answers 413 beyond.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('AwsCommonRules'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
