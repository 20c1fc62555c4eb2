import { beforeAll, describe, expect, it } from 'vitest';
import { assertMatchesContract } from '#test/helpers/contract.ts';
import { runReadmeBlock } from '#test/helpers/readme.ts';
import { ownAdmin, sharedServer } from '#test/helpers/shared-server.ts';

// The shared server: the walkthrough's ADMIN is one of an agency of its own in place of the demo agent
// (whose codes are throttled per identifier), so the agency's agents are hers and her colleague's alone.
const server = sharedServer();
let admin: string;

beforeAll(async () => {
  ({ identifier: admin } = await ownAdmin(server, 'agency-walkthrough'));
});

describe('e2e: README agency administration', () => {
  it('an ADMIN adds a colleague who signs in at once, then deactivates her and her session ends', async () => {
    const stdout = await runReadmeBlock('agency', server, {}, admin);

    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const [added, listedByHer, deactivated, refused, agents] = answers;
    const calls: [string, unknown][] = [
      ['/api/agency/agents/create', added],
      ['/api/flights/booking/list', listedByHer],
      ['/api/agency/agents/update', deactivated],
      ['/api/flights/booking/list', refused],
      ['/api/agency/agents/list', agents],
    ];
    expect(answers).toHaveLength(5);
    expect(added.data).toMatchObject({ identifier: 'grace@example.com', role: 'AGENT', active: true });
    expect(listedByHer).toEqual({ success: true, data: [], meta: { next_cursor: null } });
    expect(deactivated.data).toMatchObject({ id: added.data.id, active: false });
    expect(refused.error.code).toBe('UNAUTHORIZED');
    expect(
      agents.data.map((a: { identifier: string; role: string; active: boolean }) => [
        a.identifier,
        a.role,
        a.active,
      ]),
    ).toEqual([
      [admin, 'ADMIN', true],
      ['grace@example.com', 'AGENT', false],
    ]);
    for (const [path, body] of calls) {
      const status = body === refused ? 401 : body === added ? 201 : 200;
      assertMatchesContract(path, status, body);
    }
  });
});
