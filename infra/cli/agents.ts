/**
 * `npm run agents -- add <identifier> --name "<name>" --agency <agency_id>`, `npm run agents -- list`, and
 * `npm run agents -- deactivate|activate <identifier>`.
 *
 * Against AWS when TABLE_NAME is set (default credential chain and region); otherwise against the
 * local database in DATA_DIR, through the running `npm start` if there is one, or a DynamoDB Local
 * started for the duration of the command. Prints JSON.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AgencyId,
  AgentExistsError,
  AgentName,
  listAgents,
  registerAgent,
  setAgentActive,
} from '#shared/auth/agents.ts';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { ensureTable, LOCAL_TABLE_NAME } from '../local/bootstrap.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { findRunningLocalStack, resolveDataDir } from '../local/local-stack.ts';

const usage = `usage:
  npm run agents -- add <identifier> --name "<name>" --agency <agency_id>
  npm run agents -- list
  npm run agents -- deactivate <identifier>
  npm run agents -- activate <identifier>`;

class UsageError extends Error {}
class NoSuchAgentError extends Error {}

function fail(message: string, exitCode: number): never {
  console.error(JSON.stringify({ error: message }));
  process.exit(exitCode);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: 'string' }, agency: { type: 'string' } },
  });
  const [command, identifierArg, ...extra] = positionals;
  if (command !== 'add' && command !== 'list' && command !== 'deactivate' && command !== 'activate')
    throw new UsageError(usage);

  let input: Parameters<typeof registerAgent>[2] | undefined;
  let toggle: { identifier: string; active: boolean } | undefined;
  if (command === 'deactivate' || command === 'activate') {
    const identifier = identifierArg ? normalizeIdentifier(identifierArg) : undefined;
    if (!identifier?.ok || extra.length > 0)
      throw new UsageError(identifier && !identifier.ok ? `identifier ${identifier.message}` : usage);
    toggle = { identifier: identifier.identifier, active: command === 'activate' };
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
    let output: unknown;
    if (input) output = await registerAgent(store, systemClock(), input);
    else if (toggle) output = await setAgentActive(store, toggle.identifier, toggle.active);
    else output = await listAgents(store);
    if (output === undefined) throw new NoSuchAgentError(`no agent is registered as ${toggle?.identifier}`);
    console.log(JSON.stringify(output, null, 2));
  } finally {
    db.destroy();
    await local?.stop();
  }
}

try {
  await main();
} catch (error) {
  if (error instanceof UsageError) fail(error.message, 2);
  if (error instanceof AgentExistsError || error instanceof NoSuchAgentError) fail(error.message, 1);
  fail(`could not reach the agents table: ${(error as Error).name}`, 1);
}
