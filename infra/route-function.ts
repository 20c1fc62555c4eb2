import { join, relative } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ICommandHooks, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table.ts';
import { type FunctionSpec, functionSettings, iamTableAction } from '../shared/function-spec.ts';
import { bundleAliases, bundling, folderHash, sourceAssetHash, supplierConditions } from './bundling.ts';
import type { FlightBookingConfig } from './stage-config.ts';

const repositoryRoot = join(import.meta.dirname, '..');

export interface RouteFunctionProps {
  /** A route of the route table, or one of the event functions (no path). */
  readonly route: FunctionSpec & { readonly path?: string };
  readonly table: TableV2;
  readonly signingKey: ISecret;
  readonly logRetention: RetentionDays;
  readonly environment: Record<string, string>;
  /** For routes granted `send-email` or `send-notice`: the verified sender and optional configuration set. */
  readonly ses: { fromAddress: string; configurationSet?: string };
  /** For functions granted `delivery-queue`: the webhook delivery queue. */
  readonly deliveryQueue?: IQueue;
  /** For functions granted `supplier` or `supplier-catalog`: the stage's supplier (docs/API.md §4.5). */
  readonly supplier?: FlightBookingConfig['supplier'];
  /**
   * A folder the bundle carries beside `index.mjs`, copied into `into` (the console's build): its
   * files are part of the asset hash, so a change to any of them deploys.
   */
  readonly bundledFolder?: { readonly from: string; readonly into: string };
}

/**
 * One route's Lambda function: bundled from its entry exactly as the dev server imports it, with a
 * role of its own that holds exactly what the route table names — no managed policies.
 */
export class RouteFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    super(scope, id);
    const { route } = props;
    const supplier = route.grants.includes('supplier') ? props.supplier : undefined;
    // Built for the stage's supplier: the functions that call it, and those that answer from its data.
    const bundledFor = route.grants.includes('supplier-catalog') ? props.supplier : supplier;
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Flight booking ${route.id}: only what shared/routes.ts grants`,
    });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    const settings = functionSettings(route, supplier?.name);
    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(repositoryRoot, route.entry),
      handler: 'handler',
      projectRoot: repositoryRoot,
      depsLockFilePath: join(repositoryRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: settings.memoryMb,
      timeout: Duration.seconds(settings.timeoutSeconds),
      tracing: Tracing.ACTIVE,
      role,
      logGroup: this.logGroup,
      description: route.path ? `${route.path} (flight booking API)` : `${route.id} (flight booking)`,
      environment: { ...props.environment, ...(supplier && supplierEnvironment(supplier)) },
      bundling: bundlingOptions(route.entry, bundledFor?.name, props.bundledFolder),
    });
    this.grant(props);
    // The only unscoped statements, acknowledged on the one policy that holds them, each with why.
    Validations.of(role.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: [
        'X-Ray PutTraceSegments and PutTelemetryRecords (active tracing) have no resource-level permissions',
        ...(props.route.grants.includes('send-sms')
          ? [
              'SNS Publish to a phone number has no resource ARN; publishing to any topic is denied in this policy',
            ]
          : []),
      ].join('; '),
    });
  }

  /** Exactly the route table's grants. */
  private grant(props: RouteFunctionProps): void {
    const { route, table } = props;
    const stack = Stack.of(this);
    const index = tableDefinition.indexes[0]?.name;
    if (route.table.length > 0) {
      this.fn.addToRolePolicy(
        new PolicyStatement({
          actions: route.table.map(iamTableAction),
          resources: [
            table.tableArn,
            ...(route.table.includes('Query') && index ? [`${table.tableArn}/index/${index}`] : []),
          ],
        }),
      );
    }
    if (route.grants.includes('signing-key')) props.signingKey.grantRead(this.fn);
    if (route.grants.includes('supplier') && props.supplier?.name === 'duffel') {
      // The operator creates the token's secret; the function reads it once per cold start.
      Secret.fromSecretNameV2(this, 'DuffelToken', props.supplier.tokenSecretName).grantRead(this.fn);
    }
    if (route.grants.includes('send-email') || route.grants.includes('send-notice'))
      this.grantSendEmail(props.ses);
    if (route.grants.includes('delivery-queue')) {
      if (!props.deliveryQueue)
        throw new Error(`${route.id} is granted the delivery queue but none was given`);
      props.deliveryQueue.grantSendMessages(this.fn);
    }
    if (route.grants.includes('send-sms')) {
      // An SMS to a phone number has no resource ARN to scope to; publishing to any topic, of any
      // account in any region, is denied.
      this.fn.addToRolePolicy(new PolicyStatement({ actions: ['sns:Publish'], resources: ['*'] }));
      this.fn.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.DENY,
          actions: ['sns:Publish'],
          resources: [`arn:${stack.partition}:sns:*:*:*`],
        }),
      );
    }
  }

  /**
   * SendEmail from the configured sender. SES authorises SendEmail on every identity the message
   * involves: the sender's, and in the SES sandbox the recipient's too. So the grant covers the
   * region's identities, and the condition pins what matters: the message comes from the configured sender.
   */
  private grantSendEmail(ses: RouteFunctionProps['ses']): void {
    const stack = Stack.of(this);
    const { fromAddress, configurationSet } = ses;
    const arn = (resource: string, name: string) =>
      stack.formatArn({ service: 'ses', resource, resourceName: name });
    // The identities' ARN and cdk-nag's name for it come from the same values: literal once the stage
    // is pinned to an account and region, pseudo parameters otherwise (dev).
    const identities = (name: (value: string) => string) =>
      `arn:${name(stack.partition)}:ses:${name(stack.region)}:${name(stack.account)}:identity/*`;
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [
          identities((value) => value),
          ...(configurationSet ? [arn('configuration-set', configurationSet)] : []),
        ],
        conditions: { StringEquals: { 'ses:FromAddress': fromAddress } },
      }),
    );
    Validations.of(this).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::${identities((value) => asNagNames(stack, value))}]`,
      reason:
        'In the SES sandbox SendEmail is also authorised against the recipient’s identity, which no template can list; the statement is pinned to the configured sender by ses:FromAddress.',
    });
  }
}

/**
 * How a function's bundle is built: ESM for Node 24 with the repository's aliases, for the stage's
 * supplier when the function needs one, `bundledFolder` copied beside it; the asset hash covers all three.
 */
function bundlingOptions(
  entry: string,
  supplierName: string | undefined,
  bundledFolder: RouteFunctionProps['bundledFolder'],
) {
  return {
    format: OutputFormat.ESM,
    target: bundling.target,
    minify: bundling.minify,
    sourceMap: bundling.sourceMap,
    externalModules: [...bundling.externalModules],
    banner: bundling.banner,
    esbuildArgs: {
      ...Object.fromEntries(
        Object.entries(bundleAliases(repositoryRoot)).map(([name, target]) => [`--alias:${name}`, target]),
      ),
      // The supplier's wiring, chosen once per bundle (package.json `imports` conditions).
      ...(supplierName && { '--conditions': supplierConditions(supplierName).join(',') }),
    },
    assetHash: sourceAssetHash(
      repositoryRoot,
      [
        entry,
        ...(supplierName ? [supplierName] : []),
        ...(bundledFolder ? [folderHash(bundledFolder.from)] : []),
      ].join('#'),
    ),
    ...(bundledFolder && { commandHooks: copyIntoBundle(bundledFolder) }),
  };
}

/**
 * How cdk-nag writes `value` in a finding's name: a pseudo parameter (`{ Ref: 'AWS::Region' }` once
 * resolved) as `<AWS::Region>`, plain text as it is.
 */
function asNagNames(stack: Stack, value: string): string {
  const resolved = stack.resolve(value) as string | { Ref: string };
  return typeof resolved === 'string' ? resolved : `<${resolved.Ref}>`;
}

/**
 * Bundling hooks that copy `from` into the bundle's folder `into`, after esbuild wrote `index.mjs`.
 * The command names `from` below the bundling input (the repository), never by its absolute path:
 * CDK hashes the command into the asset hash, which must not depend on where the repository is.
 */
function copyIntoBundle({ from, into }: { from: string; into: string }): ICommandHooks {
  const quote = (path: string) => `'${path.replaceAll("'", "'\\''")}'`;
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (input, output) => [
      `mkdir -p ${quote(join(output, into))}`,
      `cp -R ${quote(`${join(input, relative(repositoryRoot, from))}/.`)} ${quote(join(output, into))}`,
    ],
  };
}

/** The supplier's settings in a function's environment: its name, and for Duffel the token's secret. */
function supplierEnvironment(supplier: FlightBookingConfig['supplier']): Record<string, string> {
  if (supplier.name === 'network') return { SUPPLIER: 'network' };
  return {
    SUPPLIER: 'duffel',
    DUFFEL_TOKEN_SECRET_ID: supplier.tokenSecretName,
    DUFFEL_LIVE: String(supplier.sellsLive),
  };
}
