import { setAgentCount } from '#shared/agency/agency-counters-item.ts';
import { listEveryAgent, readAgentProfile } from '#shared/agency/agent-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import type { Clock } from '#shared/clock.ts';
import type { TableHandle } from '#shared/db/client.ts';

/**
 * `npm run agents -- migrate`, once after an upgrade: gives every agent stored before roles existed its
 * session state, and every agency the count of its registered agents (which its limit is checked
 * against). Run it while no agent is being added or released. Answers what it did.
 */
export async function migrate(store: TableHandle, clock: Clock) {
  const migrated: string[] = [];
  const agents = await listEveryAgent(store);
  for (const agent of agents) {
    // The listing index may lag: whether the profile predates session states is read consistently.
    const stored = await readAgentProfile(store, agent.identifier);
    if (stored && stored.version === undefined) {
      await changeAgentByIdentifier(store, clock, agent.identifier, {});
      migrated.push(agent.identifier);
    }
  }
  const counts = new Map<string, number>();
  for (const agent of agents) counts.set(agent.agency_id, (counts.get(agent.agency_id) ?? 0) + 1);
  for (const [agencyId, count] of counts) await setAgentCount(store, agencyId, count);
  return { migrated, agents_per_agency: Object.fromEntries(counts) };
}
