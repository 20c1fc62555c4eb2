/**
 * The operator's agent commands: `add <identifier> --name "<name>" --agency <agency_id> [--role ADMIN]`
 * (how an agency gets its first ADMIN), `list`, `deactivate|activate <identifier>`,
 * `role <identifier> AGENT|ADMIN`, `migrate` (gives agents stored before roles existed their
 * session state), and `agency-name <agency_id> --name "<name>"` (the name travellers' notices give).
 *
 * Against AWS when TABLE_NAME is set (default credential chain and region); otherwise against the
 * local database in DATA_DIR, through the running `npm start` if there is one, or a DynamoDB Local
 * started for the duration of the command. Prints JSON.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AgencyName, agencyNameUpdate } from '#shared/agency/agency-counters-item.ts';
import { type AgentChanges, changeAgentByIdentifier, registerAgent } from '#shared/agency/agent-changes.ts';
import { AgencyId, AgentName, listEveryAgent, readAgentProfile } from '#shared/agency/agent-item.ts';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { ROLES, type Role } from '#shared/auth/roles.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient, type TableHandle } from '#shared/db/client.ts';
import { ApiError } from '#shared/errors.ts';
import { ensureTable, LOCAL_TABLE_NAME } from '../local/bootstrap.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { findRunningLocalStack, resolveDataDir } from '../local/local-stack.ts';

const usage = `usage:
  npm run agents -- add <identifier> --name "<name>" --agency <agency_id> [--role AGENT|ADMIN]
  npm run agents -- list
  npm run agents -- deactivate <identifier>
  npm run agents -- activate <identifier>
  npm run agents -- role <identifier> AGENT|ADMIN
  npm run agents -- migrate
  npm run agents -- agency-name <agency_id> --name "<name>"`;

class UsageError extends Error {}
class NoSuchAgentError extends Error {}
const COMMANDS = ['add', 'list', 'deactivate', 'activate', 'role', 'migrate', 'agency-name'];

function fail(message: string, exitCode: number): never {
  console.error(JSON.stringify({ error: message }));
  process.exit(exitCode);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, agency: { type: 'string' }, role: { type: 'string' } },
  });
  const [command, identifierArg, ...extra] = positionals;
  if (!command || !COMMANDS.includes(command)) throw new UsageError(usage);

  let input: Parameters<typeof registerAgent>[2] | undefined;
  let naming: { agencyId: string; name: string } | undefined;
  if (command === 'agency-name') {
    const agency = AgencyId.safeParse(identifierArg);
    if (!agency.success || extra.length > 0) throw new UsageError(usage);
    const name = AgencyName.safeParse(values.name);
    if (!name.success) throw new UsageError('--name must be 1-100 characters');
    naming = { agencyId: agency.data, name: name.data };
  }
  let change: { identifier: string; changes: AgentChanges } | undefined;
  const roleOption = (value: string | undefined): Role => {
    if (!ROLES.includes(value as Role)) throw new UsageError(`role must be one of ${ROLES.join(', ')}`);
    return value as Role;
  };
  if (command === 'deactivate' || command === 'activate' || command === 'role') {
    const identifier = identifierArg ? normalizeIdentifier(identifierArg) : undefined;
    const expected = command === 'role' ? 1 : 0;
    if (!identifier?.ok || extra.length !== expected)
      throw new UsageError(identifier && !identifier.ok ? `identifier ${identifier.message}` : usage);
    change = {
      identifier: identifier.identifier,
      changes: command === 'role' ? { role: roleOption(extra[0]) } : { active: command === 'activate' },
    };
  }
  if (command === 'add') {
    if (!identifierArg || extra.length > 0) throw new UsageError(usage);
    const identifier = normalizeIdentifier(identifierArg);
    if (!identifier.ok) throw new UsageError(`identifier ${identifier.message}`);
    const name = AgentName.safeParse(values.name);
    if (!name.success) throw new UsageError('--name must be 1-100 characters');
    const agency = AgencyId.safeParse(values.agency);
    if (!agency.success) throw new UsageError(`--agency ${agency.error.issues[0]?.message ?? 'is required'}`);
    input = {
      identifier: identifier.identifier,
      type: identifier.type,
      name: name.data,
      agencyId: agency.data,
      role: values.role === undefined ? 'AGENT' : roleOption(values.role),
    };
  }

  let local: DynamoDbLocal | undefined;
  let tableName = process.env.TABLE_NAME;
  let endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!tableName) {
    const dataDir = resolveDataDir();
    tableName = LOCAL_TABLE_NAME;
    endpoint = (await findRunningLocalStack(dataDir))?.dynamodb_endpoint;
    if (!endpoint) {
      local = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
      endpoint = local.endpoint;
    }
  }
  const db = createDocumentClient(endpoint);
  try {
    if (local) await ensureTable(db, tableName);
    const store = { db, tableName };
    const clock = systemClock();
    let output: unknown;
    if (input) output = await registerAgent(store, clock, input);
    else if (change) output = await changeAgentByIdentifier(store, clock, change.identifier, change.changes);
    else if (command === 'migrate') output = await migrate(store);
    else if (naming) {
      await db.send(new UpdateCommand(agencyNameUpdate(tableName, naming.agencyId, naming.name)));
      output = { agency_id: naming.agencyId, name: naming.name };
    } else output = await listEveryAgent(store);
    if (output === undefined) throw new NoSuchAgentError(`no agent is registered as ${change?.identifier}`);
    console.log(JSON.stringify(output, null, 2));
  } finally {
    db.destroy();
    await local?.stop();
  }
}

/** Gives every agent stored before roles existed its session state; answers who was migrated. */
async function migrate(store: TableHandle) {
  const migrated: string[] = [];
  for (const agent of await listEveryAgent(store)) {
    // The listing index may lag: whether the profile predates session states is read consistently.
    const stored = await readAgentProfile(store, agent.identifier);
    if (stored && stored.version === undefined) {
      await changeAgentByIdentifier(store, systemClock(), agent.identifier, {});
      migrated.push(agent.identifier);
    }
  }
  return { migrated };
}

try {
  await main();
} catch (error) {
  if (error instanceof UsageError) fail(error.message, 2);
  if (error instanceof NoSuchAgentError) fail(error.message, 1);
  if (error instanceof ApiError && error.statusCode < 500) fail(error.message, 1);
  fail(`could not reach the agents table: ${(error as Error).name}`, 1);
}
