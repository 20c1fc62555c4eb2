import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  accountTemplate,
  type Json,
  PRODUCTION,
  PRODUCTION_FILE,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { parseStageConfig } from '../../infra/stage-config.ts';

/** README's cost table: its rows by the part's name (the link text), each row's cells. */
const readme = readFileSync('README.md', 'utf8');
const table = readme.slice(readme.indexOf('**Cost.**'), readme.indexOf('**Rotating the master key**'));
const rows = new Map(
  [...table.matchAll(/^\| (?:\[([^\]]+)\]\([^)]+\)|([^|]+?)) \| (.+)$/gm)].map((m) => [
    (m[1] ?? m[2] ?? '').trim(),
    m[3] ?? '',
  ]),
);

describe('README: the cost table counts what the template has', () => {
  const { template } = synthStage(PRODUCTION);
  const count = (type: string) => resourcesOf(template, type).length;
  const row = (part: string) => rows.get(part) ?? '';

  it('counts the web ACL’s rules, the alarms and their metrics, and the dashboard', () => {
    const [[, acl] = ['', {} as Json]] = resourcesOf(template, 'AWS::WAFv2::WebACL');
    const rules = acl.Properties.Rules as Json[];
    const managed = rules.filter((r) => r.Statement.ManagedRuleGroupStatement).length;
    expect(row('WAF')).toContain(
      `1 web ACL, ${rules.length} rules (${rules.length - managed} own, ${managed} AWS managed groups`,
    );
    expect(row('WAF')).toContain(`$5 + ${rules.length} × $1 = $${(5 + rules.length).toFixed(2)}`);

    const alarms = resourcesOf(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const metrics = alarms.reduce(
      (sum, a) => sum + (a.Metrics ? a.Metrics.filter((m: Json) => m.MetricStat).length : 1),
      0,
    );
    expect(row('CloudWatch alarms')).toContain(`${alarms.length} alarms, ${metrics} alarm metrics`);
    expect(row('CloudWatch alarms')).toContain(`${metrics} × $0.10 = $${(metrics / 10).toFixed(2)}`);
    expect(row('CloudWatch dashboard')).toContain(`${count('AWS::CloudWatch::Dashboard')} dashboard`);
  });

  it('counts metric filters, keys, secrets, functions, queues, log groups and configuration sets', () => {
    expect(row('CloudWatch metrics')).toContain("API Gateway's per-method metrics off (`apiMethodMetrics`)");
    expect(row('CloudWatch metrics')).toContain(`${count('AWS::SES::ConfigurationSet')} configuration sets`);
    expect(row('KMS')).toContain(`${count('AWS::KMS::Key')} customer managed key`);
    expect(row('Secrets Manager')).toContain(`${count('AWS::SecretsManager::Secret')} secret`);
    const functions = resourcesOf(template, 'AWS::Lambda::Function').map(([, f]) => f.Properties);
    expect(functions.every((f) => f.Architectures?.[0] === 'arm64' && f.MemorySize === 512)).toBe(true);
    expect(row('Lambda')).toContain(`${functions.length} arm64 functions at 512 MB`);
    const queues = resourcesOf(template, 'AWS::SQS::Queue').map(([, q]) => q.Properties);
    expect(queues.every((q) => q.SqsManagedSseEnabled === true)).toBe(true);
    expect(row('SQS')).toContain(`${queues.length} queues`);
    expect(row('CloudWatch Logs')).toContain(`${count('AWS::Logs::LogGroup')} log groups`);
    expect(row('SES')).toContain(`${count('AWS::SES::ConfigurationSet')} configuration sets`);
    expect(row('EventBridge')).toContain(`${count('AWS::Events::Rule')} scheduled rule`);
    expect(count('AWS::ApiGateway::RestApi')).toBe(1);
    expect(row('API Gateway')).toContain('1 REST API, 1 stage, no cache');
  });

  it('counts the account stack, once per account', () => {
    const account = accountTemplate();
    const counted = (type: string) => resourcesOf(account, type).length;
    const [, cells = ''] = [...rows].find(([part]) => part.startsWith('account stack')) ?? [];
    expect(cells).toContain(
      `${counted('AWS::CloudWatch::Alarm')} alarm, ${counted('AWS::CloudWatch::Alarm')} alarm metric; ${counted('AWS::KMS::Key')} customer managed key`,
    );
    expect(cells).toContain(`${counted('AWS::Logs::MetricFilter')} log metric filter`);
    expect(cells).toContain(`${counted('AWS::Logs::LogGroup')} log groups`);
    expect(cells).toContain('1 × $0.10 + $1.00 = $1.10');
  });

  it('prices WAF’s body inspection beyond 16 KB, as the stage inspects up to 64 KB', () => {
    const [[, association] = ['', {} as Json]] = resourcesOf(template, 'AWS::WAFv2::WebACL');
    expect(JSON.stringify(association.Properties.AssociationConfig)).toContain('KB_64');
    expect(row('WAF')).toContain('bodies inspected up to 64 KB');
    expect(row('WAF')).toContain('$0.30 per million requests for each further 16 KB');
  });

  it('says per-method metrics are off, and what turning them on costs', () => {
    expect(row('CloudWatch metrics')).toContain(
      'API Gateway’s per-method metrics off (`apiMethodMetrics`)'.replace('’', "'"),
    );
    expect(row('CloudWatch metrics')).toMatch(/With `apiMethodMetrics`, about 5 more for each method/);
  });

  it('dates its prices and names the region', () => {
    expect(table.replace(/\s+/g, ' ')).toMatch(
      /US East \(N\. Virginia\) list prices read on \d{4}-\d{2}-\d{2}/,
    );
    for (const part of [
      'WAF',
      'CloudWatch alarms',
      'KMS',
      'Secrets Manager',
      'Lambda',
      'DynamoDB',
      'API Gateway',
      'SES',
    ])
      expect(table, part).toMatch(new RegExp(`\\[${part}\\]\\(https://aws\\.amazon\\.com/`));
  });
});

describe('infra: API Gateway’s per-method metrics, billed and read by nothing', () => {
  const methodMetrics = (file: Json) => {
    const { template } = synthStage(parseStageConfig('prod', file));
    const [[, stage] = ['', {} as Json]] = resourcesOf(template, 'AWS::ApiGateway::Stage');
    return (stage.Properties.MethodSettings as Json[]).map((m) => m.MetricsEnabled);
  };

  it('are off unless the stage file turns them on', () => {
    expect(PRODUCTION_FILE).not.toHaveProperty('apiMethodMetrics');
    expect(methodMetrics(PRODUCTION_FILE)).toEqual([false]);
    expect(methodMetrics({ ...PRODUCTION_FILE, apiMethodMetrics: false })).toEqual([false]);
    expect(methodMetrics({ ...PRODUCTION_FILE, apiMethodMetrics: true })).toEqual([true]);
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, apiMethodMetrics: 'yes' })).toThrow(
      /prod\.json: apiMethodMetrics/,
    );
  });

  it('are read by no alarm and no dashboard widget: every API metric they read is the API’s own', () => {
    const { template } = synthStage(PRODUCTION);
    const json = JSON.stringify([
      template.findResources('AWS::CloudWatch::Alarm'),
      template.findResources('AWS::CloudWatch::Dashboard'),
    ]);
    expect(json).toContain('AWS/ApiGateway');
    // A per-method metric carries the Resource and Method dimensions.
    expect(json).not.toMatch(/\\?"(Resource|Method)\\?"/);
  });
});
