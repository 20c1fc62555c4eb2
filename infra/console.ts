import { LambdaIntegration, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { CONSOLE_METHODS } from '../shared/console/lambda.ts';
import { CONSOLE_SCREENS } from '../shared/console/screens.ts';
import type { FunctionSpec } from '../shared/function-spec.ts';
import { addMethodNotAllowed } from './gateway.ts';
import { RouteFunction, type RouteFunctionProps } from './route-function.ts';

/**
 * The console's function (docs/API.md §4.8): no route of the route table invokes it, and it touches
 * no table and holds no grants; it carries the build and answers GET and HEAD.
 */
export const consoleFunction = {
  id: 'console',
  entry: 'functions/console/serve.ts',
  table: [],
  grants: [],
} as const satisfies FunctionSpec;

/**
 * The API resources the console answers (shared/console/serve.ts decides what each path is): every
 * screen address of the one list (shared/console/screens.ts), one booking's as `{proxy+}` (so any id
 * reaches the function, which answers 404 for one that is no address), and the build's assets.
 */
const CONSOLE_RESOURCES = [
  ...CONSOLE_SCREENS.map((screen) => screen.path.replace(/\{[a-z_]+\}$/, '{proxy+}')),
  '/assets/{file}',
];

interface ConsoleSiteProps extends Pick<RouteFunctionProps, 'table' | 'signingKey' | 'logRetention' | 'ses'> {
  readonly api: RestApi;
  /** A finished console build (infra/web/build.ts): `index.html` and `assets/`. */
  readonly build: string;
}

/**
 * The agent console, served through the API like the OpenAPI document: one function carrying the
 * build, answering GET and HEAD on {@link CONSOLE_RESOURCES} (any other method 405 from the gateway),
 * behind the stage's web ACL like every other path (docs/decisions.md, "The console, deployed").
 */
export class ConsoleSite extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    const { api, build, ...functionProps } = props;
    this.fn = new RouteFunction(this, 'Function', {
      ...functionProps,
      route: consoleFunction,
      environment: {},
      bundledFolder: { from: build, into: 'console' },
    }).fn;
    // One invoke permission for the API rather than one per method and path (eighteen, twice over
    // with test invokes): the function answers nothing but the console, whatever path reaches it.
    const integration = new LambdaIntegration(this.fn, { scopePermissionToMethod: false });
    for (const path of CONSOLE_RESOURCES) {
      const resource = api.root.resourceForPath(path);
      for (const method of CONSOLE_METHODS) resource.addMethod(method, integration);
      addMethodNotAllowed(resource, CONSOLE_METHODS.join(', '));
    }
  }
}
