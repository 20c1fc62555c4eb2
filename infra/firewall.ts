import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { envelopeTemplate } from './gateway.ts';

export interface FirewallProps {
  readonly stage: Stage;
  /** Requests per IP per 5 minutes to /api/auth/* before WAF answers 429. */
  readonly authRequestsPer5Minutes: number;
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/**
 * A WAFv2 web ACL on the API stage: a per-IP rate rule on the sign-in routes (brute force, SMS
 * pumping across identifiers) answered in the contract's envelope, and the AWS common rule set.
 */
export class Firewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('FlightBookingWebAcl'),
      customResponseBodies: {
        RateLimited: {
          contentType: 'APPLICATION_JSON',
          // WAF cannot insert the request id: the gateway never saw the request.
          content: envelopeTemplate(
            'RATE_LIMITED',
            'Too many sign-in requests from your address; try again later.',
          ).replace('$context.requestId', 'waf'),
        },
      },
      rules: [
        {
          name: 'AuthRateLimit',
          priority: 0,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'RateLimited',
                responseHeaders: [{ name: 'Retry-After', value: '300' }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              limit: props.authRequestsPer5Minutes,
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
          name: 'AwsCommonRules',
          priority: 1,
          overrideAction: { none: {} },
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
