import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { type Route, routes, sweepJob } from '#shared/routes.ts';
import { nagFindings } from '#test/helpers/cdk-nag.ts';
import {
  DEVELOPMENT,
  type Json,
  PRODUCTION_FILE,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { bundleAliases, bundling, supplierConditions } from '../../infra/bundling.ts';
import { parseStageConfig } from '../../infra/stage-config.ts';

const DUFFEL_FILE = {
  ...PRODUCTION_FILE,
  supplier: { name: 'duffel', tokenSecretName: 'flight-booking/prod/duffel-token', sellsLive: false },
} as const;
const duffelStage = synthStage(parseStageConfig('prod', DUFFEL_FILE), true);
const networkStage = synthStage(DEVELOPMENT);
const supplierRoutes = (routes as readonly Route[]).filter((r) => r.grants.includes('supplier'));

const functionFor = (template: typeof duffelStage.template, route: Route | typeof sweepJob): Json => {
  const description = 'path' in route ? `${route.path} (flight booking API)` : `${route.id} (flight booking)`;
  const found = resourcesOf(template, 'AWS::Lambda::Function').find(
    ([, fn]) => fn.Properties.Description === description,
  );
  if (!found) throw new Error(`no function for ${route.id}`);
  return found[1];
};
/** The actions the role of `fn` may perform on each resource, as JSON text (resources are tokens). */
const grantsOf = (template: typeof duffelStage.template, fn: Json): string => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return JSON.stringify(
    resourcesOf(template, 'AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: Json) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement),
  );
};

describe('infra: the stage names its supplier', () => {
  it('gives a Duffel stage’s search, create and cancel the supplier, the token’s secret and a longer deadline', () => {
    const { template } = duffelStage;
    for (const route of supplierRoutes) {
      const fn = functionFor(template, route);
      expect(fn.Properties.Environment.Variables).toMatchObject({
        SUPPLIER: 'duffel',
        DUFFEL_TOKEN_SECRET_ID: 'flight-booking/prod/duffel-token',
        DUFFEL_LIVE: 'false',
      });
      expect(fn.Properties.Timeout).toBe(28);
      expect(grantsOf(template, fn)).toContain('secret:flight-booking/prod/duffel-token-??????');
    }
    for (const route of (routes as readonly Route[]).filter((r) => !r.grants.includes('supplier'))) {
      const fn = functionFor(template, route);
      expect(fn.Properties.Environment.Variables.SUPPLIER).toBeUndefined();
      expect(grantsOf(template, fn)).not.toContain('duffel-token');
    }
  });

  it('runs the sweep every minute in either stage, with the stage’s supplier', () => {
    const rules = resourcesOf(duffelStage.template, 'AWS::Events::Rule');
    const sweep = functionFor(duffelStage.template, sweepJob);

    expect(rules).toHaveLength(1);
    expect(rules[0]?.[1].Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(JSON.stringify(rules[0]?.[1].Properties.Targets)).toContain(
      Object.keys(
        duffelStage.template.findResources('AWS::Lambda::Function', { Properties: sweep.Properties }),
      )[0],
    );
    expect(sweep.Properties.Environment.Variables.SUPPLIER).toBe('duffel');
    expect(grantsOf(duffelStage.template, sweep)).toContain('dynamodb:Query');
    expect(resourcesOf(networkStage.template, 'AWS::Events::Rule')).toHaveLength(1);
    expect(functionFor(networkStage.template, sweepJob).Properties.Environment.Variables.SUPPLIER).toBe(
      'network',
    );
    for (const route of supplierRoutes) {
      const fn = functionFor(networkStage.template, route);
      expect(fn.Properties.Environment.Variables.SUPPLIER).toBe('network');
      expect(fn.Properties.Timeout).toBe(10);
    }
  });

  it('passes cdk-nag with a Duffel stage', () => {
    expect(nagFindings(duffelStage.app)).toBe('');
  });

  it('refuses a Duffel stage without its token’s secret, and a supplier it does not know', () => {
    const noSecret = { ...PRODUCTION_FILE, supplier: { name: 'duffel', sellsLive: false } };
    const unknown = { ...PRODUCTION_FILE, supplier: { name: 'amadeus' } };

    expect(() => parseStageConfig('prod', noSecret)).toThrow(/supplier\.tokenSecretName/);
    expect(() => parseStageConfig('prod', unknown)).toThrow(/supplier/);
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, supplier: undefined })).toThrow(/supplier/);
  });
});

describe('infra: a stage’s functions carry only its supplier’s code', () => {
  const bundle = async (entry: string, supplier: string) => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: bundling.target,
      minify: true,
      banner: { js: bundling.banner },
      alias: bundleAliases(process.cwd()),
      conditions: supplierConditions(supplier),
      logLevel: 'silent',
    });
    return result.outputFiles[0]?.text ?? '';
  };

  it('leaves Duffel out of a network bundle, and the network out of a Duffel bundle', async () => {
    const network = await bundle('functions/bookings/create.ts', 'network');
    const duffel = await bundle('functions/bookings/create.ts', 'duffel');

    expect(network).not.toContain('/air/orders');
    expect(network).not.toContain('Duffel-Version');
    expect(network).toContain('sold_');
    expect(duffel).toContain('/air/orders');
    expect(duffel).not.toContain('sold_');
  });

  it('bundles airport search with its stage’s airports only: the served ones, or every IATA airport', async () => {
    const network = await bundle('functions/airports/search.ts', 'network');
    const duffel = await bundle('functions/airports/search.ts', 'duffel');

    expect(network).toContain('London Heathrow Airport');
    expect(network).not.toContain('Anaa Airport'); // served by no route of the network
    expect(duffel).toContain('Anaa Airport');
    expect(duffel).not.toContain('continent:'); // the network's served airport details
    expect(duffel).not.toContain('latitude');
    // Neither reads the supplier's settings or carries an adapter: it calls no supplier.
    for (const text of [network, duffel]) {
      expect(text).not.toContain('DUFFEL_');
      expect(text).not.toContain('Duffel-Version');
    }
  });

  it('builds airport search for the stage’s supplier without giving it the supplier’s token', () => {
    const airports = (routes as readonly Route[]).find((r) => r.id === 'airports-search');
    if (!airports) throw new Error('no airports-search route');
    const fn = functionFor(duffelStage.template, airports);

    expect(fn.Properties.Environment.Variables.SUPPLIER).toBeUndefined();
    expect(grantsOf(duffelStage.template, fn)).not.toContain('duffel-token');
  });
});
