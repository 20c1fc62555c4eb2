import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Json, PRODUCTION, resourcesOf, synthStage } from '#test/helpers/stage-files.ts';

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
    expect(row('CloudWatch metrics')).toContain(`${count('AWS::Logs::MetricFilter')} log metric filters`);
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
