/**
 * `npm run agents -- add <identifier> --name "<name>" --agency <agency_id>` and `npm run agents -- list`.
 *
 * Against AWS when TABLE_NAME is set (default credential chain and region); otherwise against the
 * local database in DATA_DIR, through the running `npm start` if there is one, or a DynamoDB Local
 * started for the duration of the command. Prints JSON.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AgencyId, AgentExistsError, AgentName, listAgents, registerAgent } from '#shared/auth/agents.ts';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { systemClock } from '#shared/clock.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { ensureTable, LOCAL_TABLE_NAME } from '../local/bootstrap.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { findRunningLocalStack, resolveDataDir } from '../local/local-stack.ts';

const usage = `usage:
  npm run agents -- add <identifier> --name "<name>" --agency <agency_id>
  npm run agents -- list`;

class UsageError extends Error {}

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
  if (command !== 'add' && command !== 'list') throw new UsageError(usage);

  let input: Parameters<typeof registerAgent>[2] | undefined;
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
    const output = input ? await registerAgent(store, systemClock(), input) : await listAgents(store);
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
  if (error instanceof AgentExistsError) fail(error.message, 1);
  fail(`could not reach the agents table: ${(error as Error).name}`, 1);
}
