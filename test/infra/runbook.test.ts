import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentRoute, eventFunctions, routes } from '#shared/routes.ts';
import {
  accountTemplate,
  DEVELOPMENT,
  PRODUCTION,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';

const runbook = readFileSync('docs/runbook.md', 'utf8');

/** The runbook's alarm sections: `### \`<alarm>\`` headings, each with the text up to the next heading. */
const sections = new Map(
  [...runbook.matchAll(/^### `([^`]+)`\n([\s\S]*?)(?=^#{2,3} |(?![\s\S]))/gm)].map((m) => [
    m[1] ?? '',
    m[2] ?? '',
  ]),
);

const account = accountTemplate();
const alarmNames = [
  ...[synthStage(DEVELOPMENT).template, synthStage(PRODUCTION).template, account].flatMap((template) =>
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
