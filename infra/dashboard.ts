import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, type IMetric, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';

interface DashboardParts {
  readonly name: string;
  readonly api: RestApi;
  readonly functions: readonly NodejsFunction[];
  readonly dynamo: { readonly throttles: IMetric; readonly errors: IMetric };
  /** Sign-in health and abuse, from the functions' logs: failed deliveries, wrong codes, throttled and sent codes. */
  readonly signIn: Record<string, IMetric>;
  /** SES's delivery events (sends, bounces, complaints), when the stage has a configuration set. */
  readonly email: readonly IMetric[];
  /** The traveller notices' configuration set's sends, bounces and complaints (none without one). */
  readonly notices: readonly IMetric[];
  readonly firewall: { readonly webAclName: string; readonly ruleNames: readonly string[] };
  /** The event pipeline: new dead letters, the delivery queue's oldest message, stream reads, lag. */
  readonly events: readonly IMetric[];
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * One dashboard per stage, top to bottom in the order on-call reads it (docs/runbook.md): what agents
 * see (requests, errors, latency), the functions, DynamoDB, sign-in and its abuse signals, the
 * firewall rule by rule, the event pipeline, and SES's view of the sign-in e-mails.
 */
export function addDashboard(scope: Construct, parts: DashboardParts): Dashboard {
  return new Dashboard(scope, 'Dashboard', {
    dashboardName: parts.name,
    widgets: [
      apiRow(parts.api),
      functionsRow(parts.functions),
      [
        new GraphWidget({ title: 'DynamoDB throttled requests', left: [parts.dynamo.throttles] }),
        new GraphWidget({ title: 'DynamoDB system errors', left: [parts.dynamo.errors] }),
      ],
      [
        wide(
          'Sign-in: failed deliveries, wrong codes, throttled and sent codes',
          Object.values(parts.signIn),
        ),
      ],
      ...firewallRows(scope, parts.firewall),
      [
        wide('Events: new dead letters, oldest delivery message (s), stream records read, lag (ms)', [
          ...parts.events,
        ]),
      ],
      ...(parts.email.length > 0
        ? [[wide('Sign-in e-mail: sends, bounces, complaints (SES)', [...parts.email])]]
        : []),
      ...(parts.notices.length > 0
        ? [[wide('Traveller notices: sends, bounces, complaints (SES)', [...parts.notices])]]
        : []),
    ],
  });
}

/** A row across the dashboard's width. */
const wide = (title: string, left: IMetric[]) => new GraphWidget({ title, left, width: 24 });

/** What agents see: requests and errors, latency. */
function apiRow(api: RestApi): GraphWidget[] {
  return [
    new GraphWidget({
      title: 'API requests and errors',
      left: [
        api.metricCount({ period: FIVE_MINUTES }),
        api.metricClientError({ period: FIVE_MINUTES }),
        api.metricServerError({ period: FIVE_MINUTES }),
      ],
    }),
    new GraphWidget({
      title: 'API latency (p50, p99)',
      left: [api.metricLatency({ statistic: 'p50' }), api.metricLatency({ statistic: 'p99' })],
    }),
  ];
}

/** Every function's errors, duration and throttles, beside the account's concurrency. */
function functionsRow(functions: DashboardParts['functions']): GraphWidget[] {
  return [
    new GraphWidget({
      title: 'Function errors',
      left: functions.map((fn) => fn.metricErrors({ period: FIVE_MINUTES })),
    }),
    new GraphWidget({
      title: 'Function duration p99',
      left: functions.map((fn) => fn.metricDuration({ statistic: 'p99' })),
    }),
    new GraphWidget({
      title: 'Function throttles and concurrency',
      left: functions.map((fn) => fn.metricThrottles({ period: FIVE_MINUTES })),
      right: [
        new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'ConcurrentExecutions',
          period: FIVE_MINUTES,
          statistic: 'Maximum',
          label: 'account concurrency (max)',
        }),
      ],
    }),
  ];
}

/** The firewall rule by rule, allowed against blocked, and the common rule set's counts. */
function firewallRows(scope: Construct, firewall: DashboardParts['firewall']): GraphWidget[][] {
  const waf = (metricName: string, rule: string, label = rule) =>
    new Metric({
      namespace: 'AWS/WAFV2',
      metricName,
      dimensionsMap: { WebACL: firewall.webAclName, Region: Stack.of(scope).region, Rule: rule },
      period: FIVE_MINUTES,
      statistic: 'Sum',
      label,
    });
  return [
    [
      wide(
        'Firewall: blocked requests by rule',
        firewall.ruleNames.map((rule) => waf('BlockedRequests', rule)),
      ),
    ],
    [
      new GraphWidget({
        title: 'Firewall: allowed and blocked (all rules)',
        left: [waf('AllowedRequests', 'ALL', 'allowed'), waf('BlockedRequests', 'ALL', 'blocked')],
      }),
      new GraphWidget({
        title: 'Firewall: common rule set counting (COUNT mode)',
        left: [waf('CountedRequests', 'AwsCommonRules')],
      }),
    ],
  ];
}
