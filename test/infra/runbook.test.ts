import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { functionSettings } from '#shared/function-spec.ts';
import { documentRoute, eventFunctions, routes, sweepJob } from '#shared/routes.ts';
import { awsCommands, synopsisProblems } from '#test/helpers/aws-cli.ts';
import {
  accountTemplate,
  DEVELOPMENT,
  type Json,
  PRODUCTION,
  resourcesOf,
  STAGE_FIXTURES,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { consoleFunction } from '../../infra/console.ts';

const runbook = readFileSync('docs/runbook.md', 'utf8');

/** The runbook's alarm sections: `### \`<alarm>\`` headings, each with the text up to the next heading. */
const sections = new Map(
  [...runbook.matchAll(/^### `([^`]+)`\n([\s\S]*?)(?=^#{2,3} |(?![\s\S]))/gm)].map((m) => [
    m[1] ?? '',
    m[2] ?? '',
  ]),
);

const account = accountTemplate();
const development = synthStage(DEVELOPMENT).template;
/** A route's timeout in a stage that sells from the network: every route's but the console's. */
const defaults = functionSettings(documentRoute).timeoutSeconds;
/** How often the events function's stream batches are retried, and deliveries received, as deployed. */
const streamRetries = resourcesOf(development, 'AWS::Lambda::EventSourceMapping').flatMap(([, m]) =>
  m.Properties.MaximumRetryAttempts === undefined ? [] : [m.Properties.MaximumRetryAttempts],
);
const deliveryReceives = resourcesOf(development, 'AWS::SQS::Queue').flatMap(([, q]) =>
  q.Properties.RedrivePolicy ? [q.Properties.RedrivePolicy.maxReceiveCount] : [],
);
const alarmNames = [
  ...[development, synthStage(PRODUCTION).template, account].flatMap((template) =>
    resourcesOf(template, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties.AlarmName as string),
  ),
];

/** The runbook heading for an alarm: its name without the stage prefix; per-route alarms share one. */
function sectionFor(alarmName: string): string {
  const id = alarmName.replace(/^flight-booking-(dev|prod|account)-/, '');
  const route = [...routes, documentRoute, ...eventFunctions].find(
    (r) => id === `${r.id}-Errors` || id === `${r.id}-Throttles`,
  );
  return route ? id.replace(route.id, '<route>') : id;
}

describe('docs/runbook.md', () => {
  it('has a section for every alarm the stage and account stacks create', () => {
    expect(alarmNames.length).toBeGreaterThan(2 * routes.length);
    for (const name of alarmNames) expect([...sections.keys()], name).toContain(sectionFor(name));
  });

  it('has no section for an alarm that does not exist', () => {
    const used = new Set(alarmNames.map(sectionFor));
    expect([...sections.keys()].filter((heading) => !used.has(heading))).toEqual([]);
  });

  it('says in each section what the alarm means, the first query to run and what to do', () => {
    for (const [alarm, text] of sections) {
      expect(text, alarm).toMatch(/\*\*Means:\*\*/);
      expect(text, alarm).toMatch(/\*\*First query[^*]*\*\*[\s\S]*```/);
      expect(text, alarm).toMatch(/\*\*Do:\*\*/);
    }
  });

  it('is linked from the README', () => {
    expect(readFileSync('README.md', 'utf8')).toContain('(docs/runbook.md)');
  });
});

describe('docs/runbook.md: what it says of the alarms matches the code', () => {
  const section = (heading: string) => (sections.get(heading) ?? '').replace(/\s+/g, ' ');

  it('names each function’s real timeout, in a network and in a Duffel stage', () => {
    const errors = section('<route>-Errors');
    expect(errors).toContain(`${defaults} s for each route;`);
    for (const route of [...routes, documentRoute])
      expect(functionSettings(route).timeoutSeconds, route.id).toBe(defaults);
    const duffel = [...routes, documentRoute].filter(
      (r) => functionSettings(r, 'duffel').timeoutSeconds !== defaults,
    );
    const named = /in a Duffel stage (\d+) s for ((?:`[^`]+`(?:, |\s+and\s+)?)+)/.exec(errors);
    for (const route of duffel)
      expect(functionSettings(route, 'duffel').timeoutSeconds).toBe(Number(named?.[1]));
    expect([...(named?.[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual(
      duffel.map((r) => r.id).sort(),
    );
    for (const fn of eventFunctions)
      expect(errors).toContain(`\`${fn.id}\` ${functionSettings(fn).timeoutSeconds} s`);
    expect(section('sweep-Errors')).toContain(
      `a timeout (${functionSettings(sweepJob).timeoutSeconds} s; in a Duffel stage ${functionSettings(sweepJob, 'duffel').timeoutSeconds} s`,
    );
    expect(section('DeliveryBacklog')).toContain(
      `${functionSettings(eventFunctions[1]).timeoutSeconds}-second timeout`,
    );
    expect(section('EventsIteratorAge')).toContain(
      `${functionSettings(eventFunctions[0]).timeoutSeconds}-second timeout`,
    );
  });

  it('covers the event functions in the Throttles entry, each with what a throttle does to it', () => {
    const throttles = section('<route>-Throttles');
    for (const fn of eventFunctions) expect(throttles).toContain(`\`${fn.id}-Throttles\``);
    expect(streamRetries).toHaveLength(1);
    expect(throttles).toContain(`without counting it against its ${streamRetries[0]} retries`);
    expect(deliveryReceives).toHaveLength(1);
    expect(throttles).toContain(`after ${deliveryReceives[0]}, a message goes to the dead-letter queue`);
  });

  it('words Api5xxRate as its threshold, comparison and periods are', () => {
    const alarm = resourcesOf(synthStage(PRODUCTION).template, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.AlarmName === 'flight-booking-prod-Api5xxRate',
    )?.[1].Properties;
    expect(alarm).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: 2,
    });
    expect(alarm?.AlarmDescription).toMatch(/^At least 1 % /);
    expect(section('Api5xxRate')).toContain(
      "at least 1 % of the API's requests answered 5xx in each of two 5-minute periods in a row",
    );
  });
});

describe('README: the timeouts table matches the code', () => {
  const readme = readFileSync('README.md', 'utf8');
  const rows = new Map(
    [...readme.slice(readme.indexOf('**Timeouts**')).matchAll(/^\| (.+?) \| (\d+) s\b(.*)\|$/gm)].map((m) => [
      m[1] ?? '',
      `${m[2]} s${m[3]?.match(/; (\d+) s in a Duffel stage/)?.[0] ?? ''}`,
    ]),
  );
  const all = [...routes, documentRoute, consoleFunction];

  it('gives each function the timeout it deploys with', () => {
    expect(rows.get('each route')).toBe(`${defaults} s`);
    const duffelRow = [...rows].find(([name]) => name.endsWith('in a Duffel stage'));
    const named = [...(duffelRow?.[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
    const slower = all.filter((r) => functionSettings(r, 'duffel').timeoutSeconds !== defaults);
    expect(named).toEqual(slower.map((r) => r.id).sort());
    for (const route of slower)
      expect(duffelRow?.[1]).toBe(`${functionSettings(route, 'duffel').timeoutSeconds} s`);
    for (const fn of eventFunctions)
      expect(rows.get([...rows.keys()].find((k) => k.startsWith(`\`${fn.id}\``)) ?? '')).toBe(
        `${functionSettings(fn).timeoutSeconds} s`,
      );
    expect(rows.get('`sweep` (every minute)')).toBe(
      `${functionSettings(sweepJob).timeoutSeconds} s; ${functionSettings(sweepJob, 'duffel').timeoutSeconds} s in a Duffel stage`,
    );
    for (const fn of [...all, ...eventFunctions, sweepJob]) expect(functionSettings(fn).memoryMb).toBe(512);
  });
});

describe('docs/runbook.md: WAF logging', () => {
  it('turns logging on and off with commands that name the stack’s real output and a name WAF accepts', () => {
    const outputs = Object.keys(synthStage(PRODUCTION).template.findOutputs('*'));
    const procedure = runbook.slice(runbook.indexOf('aws-waf-logs-flight-booking-$STAGE'));
    const output = /OutputKey=='(\w+)'/.exec(procedure)?.[1];
    expect(outputs).toContain(output);
    expect(output).toBe('WebAclArn');
    for (const command of [
      'aws logs create-log-group --log-group-name "$GROUP"',
      'aws wafv2 put-logging-configuration',
      'LogDestinationConfigs=$' + '{GROUP_ARN%:*}', // the ARN without describe-log-groups' ":*"
      'aws wafv2 delete-logging-configuration --resource-arn "$ACL_ARN"',
      'aws logs delete-log-group --log-group-name "$GROUP"',
    ])
      expect(procedure).toContain(command);
  });
});

describe('README: what a first deploy needs to know', () => {
  const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');

  it('says plainly that dev sends from the example address dev.json is committed with', () => {
    // The committed file's copy: an operator's own dev.json may name a verified sender.
    const dev = JSON.parse(readFileSync(`${STAGE_FIXTURES}/dev.json`, 'utf8'));
    expect(readme).toContain(
      `**\`dev\` sends from an example address.** \`infra/stages/dev.json\` keeps \`"sesFromAddress": "${dev.sesFromAddress}"\``,
    );
  });

  it('deploys with npx cdk only, and says why not a global cdk', () => {
    expect(readme).toContain('Always `npx cdk`, never a global `cdk`');
    const commands = [...readme.matchAll(/(?:^|[\s`(])((?:npx )?cdk (?:deploy|destroy|bootstrap)\b)/g)].map(
      (m) => m[1],
    );
    expect(commands.length).toBeGreaterThan(3);
    expect(commands.filter((c) => !c?.startsWith('npx '))).toEqual([]);
  });
});

describe('docs/runbook.md and README.md: every aws command runs as written', () => {
  const documents = ['docs/runbook.md', 'README.md'].map((file) => [file, readFileSync(file, 'utf8')]);

  it.each(documents)(
    'gives every command in %s with options its synopsis has, the required ones included',
    (_file, text) => {
      const commands = awsCommands(text);
      expect(commands.length).toBeGreaterThan(5);
      expect(commands.flatMap(synopsisProblems)).toEqual([]);
    },
  );

  it.each(documents)('uses no GNU-only date option in %s (macOS’s date has neither)', (_file, text) => {
    expect(text).not.toMatch(/\bdate\b[^`\n|;)]*\s(-d|--date)\b/);
  });

  it('reads the names its procedures need from outputs the stack has', () => {
    const outputs = Object.keys(synthStage(PRODUCTION).template.findOutputs('*'));
    const named = [...runbook.matchAll(/OutputKey=='(\w+)'/g)].map((m) => m[1]);
    expect(named).toContain('SweepScheduleRuleName');
    for (const name of named) expect(outputs, name).toContain(name);
  });
});

describe('test/helpers/aws-cli.ts: reads commands as a shell would', () => {
  it('finds commands in blocks, inline code and $(…), across continuation lines, and checks their options', () => {
    const text = [
      '```bash',
      'ID=$(aws wafv2 list-ip-sets --scope REGIONAL --query "IPSets[?Name==\'a b\'].Id | [0]" --output text)',
      'aws sqs delete-message --queue-url "$URL" \\',
      '  --receipt-handle "$(aws sqs receive-message --queue-url "$URL" --query x)"   # a comment --nope',
      '```',
      'Then `aws events enable-rule` and `aws sns opt-in-phone-number --phone-numbers 1`.',
    ].join('\n');
    const commands = awsCommands(text);
    expect(commands.map((c) => [c.command, c.options])).toEqual([
      ['wafv2 list-ip-sets', ['--scope', '--query', '--output']],
      ['sqs delete-message', ['--queue-url', '--receipt-handle']],
      ['sqs receive-message', ['--queue-url', '--query']],
      ['events enable-rule', []],
      ['sns opt-in-phone-number', ['--phone-numbers']],
    ]);
    expect(commands.flatMap(synopsisProblems).map((p) => p.replace(/^.*: /, ''))).toEqual([
      'events enable-rule requires --name',
      'sns opt-in-phone-number takes no --phone-numbers',
      'sns opt-in-phone-number requires --phone-number',
    ]);
  });
});

describe('README and docs/runbook.md: a first deploy that fails, and one that starts right', () => {
  const readme = readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
  const procedure = runbook.slice(
    runbook.indexOf('## A failed first deploy'),
    runbook.indexOf('## Bookings'),
  );

  it('bootstraps the environment the stage is pinned to, never whatever the credentials default to', () => {
    const bootstraps = [...readme.matchAll(/npx cdk bootstrap[^`]*/g)].map((m) => m[0].trim());
    expect(bootstraps.length).toBeGreaterThan(0);
    for (const command of bootstraps) expect(command).toBe('npx cdk bootstrap aws://<account>/<region>');
    expect(procedure).toContain('npx cdk bootstrap aws://<account>/<region>');
  });

  it('says what a failed creation keeps: exactly what the template retains on a rollback', () => {
    const { template } = synthStage(PRODUCTION);
    const policies = Object.values(template.toJSON().Resources as Record<string, Json>);
    // How the procedure names each kind of resource.
    const named: Record<string, string> = {
      'AWS::DynamoDB::GlobalTable': 'the table',
      'AWS::SecretsManager::Secret': "the signing key's secret",
      'AWS::Logs::LogGroup': 'the log groups',
      'AWS::SQS::Queue': 'the queues',
      'AWS::KMS::Key': "the alarm topic's key",
      'AWS::IAM::Role': "API Gateway's account-wide CloudWatch role",
      'AWS::ApiGateway::Account': 'the account setting that names it',
    };
    const text = procedure.replace(/\s+/g, ' ');
    const [deleted, kept] = [
      text.indexOf('Everything the stack created is deleted'),
      text.indexOf('Two things are kept'),
    ];
    expect(deleted).toBeGreaterThan(0);
    for (const resource of policies.filter((r) => r.DeletionPolicy === 'RetainExceptOnCreate'))
      expect(text.slice(deleted, kept), resource.Type).toContain(named[resource.Type]);
    const retained = policies.filter((r) => r.DeletionPolicy === 'Retain').map((r) => r.Type);
    expect(retained.sort()).toEqual(['AWS::ApiGateway::Account', 'AWS::IAM::Role']);
    for (const type of retained) expect(text.slice(kept), type).toContain(named[type]);
  });

  it('gives each rollback state its way back', () => {
    for (const state of ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'UPDATE_ROLLBACK_FAILED'])
      expect(procedure).toContain(`- \`${state}\``);
    for (const command of [
      'aws cloudformation update-termination-protection',
      'aws dynamodb update-table --table-name "$TABLE" --no-deletion-protection-enabled',
      'aws cloudformation continue-update-rollback',
    ])
      expect(procedure.replace(/\\\n\s*/g, ' ').replace(/\s+/g, ' ')).toContain(command);
    expect(readme).toContain('(docs/runbook.md#a-failed-first-deploy)');
  });
});
