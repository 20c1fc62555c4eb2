import { randomBytes } from 'node:crypto';
import { registerAgent } from '#shared/agency/agent-changes.ts';
import type { Agent } from '#shared/agency/agent-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import type { Role } from '#shared/auth/roles.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient } from '#shared/db/client.ts';

/** The test file's own table, through a client of its own. */
export const testDb = createDocumentClient(process.env.DYNAMODB_ENDPOINT);
export const testTable = { db: testDb, tableName: process.env.TABLE_NAME ?? '' };

/** A unique e-mail identifier, so tests never share throttles or codes. */
export function uniqueEmail(prefix = 'agent'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/** Registers an agent in the test file's table. */
export function registerTestAgent(
  identifier = uniqueEmail(),
  options: { agencyId?: string; name?: string; role?: Role } = {},
): Promise<Agent> {
  return registerAgent(testTable, systemClock(), {
    identifier,
    type: identifier.startsWith('+') ? 'PHONE' : 'EMAIL',
    name: options.name ?? 'Test Agent',
    agencyId: options.agencyId ?? 'test-agency',
    role: options.role ?? 'AGENT',
  });
}

/** Deactivates (or re-activates) a test agent, as the operator's CLI does. */
export async function setTestAgentActive(identifier: string, active: boolean): Promise<void> {
  await changeAgentByIdentifier(testTable, systemClock(), identifier, { active });
}
