/**
 * The operator's agent commands: `add <identifier> --name "<name>" --agency <agency_id> [--role ADMIN]`
 * (how an agency gets its first ADMIN), `list`, `deactivate [--force]|activate <identifier>`,
 * `role <identifier> AGENT|ADMIN`, `revoke <identifier>` (ends its sessions), `release <identifier>`
 * (frees an identifier registered by mistake), `limit <agency_id> <agents>`, `migrate` (gives agents
 * stored before roles existed their session state, and agencies their count of agents) and
 * `agency-name <agency_id> --name "<name>"` (the name travellers' notices give).
 *
 * Against AWS when TABLE_NAME is set (default credential chain and region); otherwise against the
 * local database in DATA_DIR, through the running `npm start` if there is one, or a DynamoDB Local
 * started for the duration of the command. Prints JSON. A usage error (exit 2) touches no table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AgencyName, agencyNameUpdate, setAgentLimit } from '#shared/agency/agency-counters-item.ts';
import { type AgentChanges, registerAgent } from '#shared/agency/agent-changes.ts';
import { AgencyId, AgentName, listEveryAgent } from '#shared/agency/agent-item.ts';
import {
  changeAgentByIdentifier,
  releaseAgent,
  revokeAgentSessions,
} from '#shared/agency/operator-changes.ts';
import { normalizeIdentifier } from '#shared/auth/identifier.ts';
import { phoneNumberProblem } from '#shared/auth/phone-number-problem.ts';
import { ROLES, type Role } from '#shared/auth/roles.ts';
import { systemClock } from '#shared/clock.ts';
import { readAgencyBounds } from '#shared/config.ts';
import { createDocumentClient, type TableHandle } from '#shared/db/client.ts';
import { ApiError } from '#shared/errors.ts';
import { ensureTable, LOCAL_TABLE_NAME } from '../local/bootstrap.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { findRunningLocalStack, resolveDataDir } from '../local/local-stack.ts';
import { migrate } from './migrate.ts';

/** What `--help` prints: every command of COMMANDS, with what it does. */
const usage = `Usage: npm run agents -- <command> [arguments] [options]

Registers and manages agents and agencies. Works on the local database in DATA_DIR (default .data/),
through the running npm start or a DynamoDB Local of its own; on AWS when TABLE_NAME is set. Prints JSON.

Commands:
  add <identifier> --name "<name>" --agency <agency_id> [--role AGENT|ADMIN] [--stage <stage>]
                                   register an agent: an e-mail address or an E.164 phone number, in
                                   a country the stage allows (--stage reads infra/stages/<stage>.json,
                                   or a stage file's path; or ALLOWED_PHONE_COUNTRY_CODES; one of them
                                   is required with TABLE_NAME)
  list                             every agent
  deactivate <identifier> [--force]
                                   end its sessions, no more codes (--force: even an agency's last ADMIN)
  activate <identifier>            let a deactivated agent sign in again
  role <identifier> AGENT|ADMIN    change its role
  revoke <identifier>              end every session it holds; it may sign in again
  release <identifier>             forget it (profile, sessions, pending code): the identifier is free
  limit <agency_id> <agents>       how many agents the agency may register (default 50)
  agency-name <agency_id> --name "<name>"
                                   the agency's name in travellers' notices
  migrate                          once after upgrading: session states, each agency's count of agents

Options:
  -h, --help                       print this text

Exit status: 0 done; 1 refused, unknown agent or unreachable table; 2 usage error (no table touched).
`;
const seeHelp = '(npm run agents -- --help prints the usage)';

class UsageError extends Error {}
class HelpRequested extends Error {}
class NoSuchAgentError extends Error {}
const COMMANDS = [
  'add',
  'list',
  'deactivate',
  'activate',
  'role',
  'revoke',
  'release',
  'limit',
  'migrate',
  'agency-name',
];
/** The most agents an operator may allow one agency: far beyond any real agency, short of abuse. */
const MAX_AGENT_LIMIT = 10_000;

function fail(message: string, exitCode: number): never {
  console.error(JSON.stringify({ error: message }));
  process.exit(exitCode);
}

/** What the command line asks for, checked before any table is touched. */
type Task =
  | { kind: 'add'; input: Parameters<typeof registerAgent>[2] }
  | { kind: 'change'; identifier: string; changes: AgentChanges; force: boolean }
  | { kind: 'revoke' | 'release'; identifier: string }
  | { kind: 'limit'; agencyId: string; limit: number }
  | { kind: 'agency-name'; agencyId: string; name: string }
  | { kind: 'list' | 'migrate' };

function parseCommandLine(args: string[]): Task {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (error) {
    // A missing option value, an unknown option: node's own message.
    throw new UsageError(`${(error as Error).message} ${seeHelp}`);
  }
  const { positionals, values } = parsed;
  if (values.help) throw new HelpRequested();
  const [command, subject, ...extra] = positionals;
  if (!command) throw new UsageError(`a command is required ${seeHelp}`);
  if (!COMMANDS.includes(command))
    throw new UsageError(`unknown command ${JSON.stringify(command)} ${seeHelp}`);
  if (values.force && command !== 'deactivate')
    throw new UsageError(`--force is for deactivate only ${seeHelp}`);
  if (values.stage !== undefined && command !== 'add')
    throw new UsageError(`--stage is for add only ${seeHelp}`);
  const expectExtra = (count: number) => {
    if (extra.length !== count) throw new UsageError(`wrong number of arguments for ${command} ${seeHelp}`);
  };
  switch (command) {
    case 'list':
    case 'migrate':
      if (subject !== undefined) throw new UsageError(`${command} takes no arguments ${seeHelp}`);
      return { kind: command };
    case 'deactivate':
    case 'activate':
    case 'role': {
      const { identifier } = identifierOf(command, subject);
      expectExtra(command === 'role' ? 1 : 0);
      const changes =
        command === 'role' ? { role: roleOption(extra[0]) } : { active: command === 'activate' };
      return { kind: 'change', identifier, changes, force: values.force === true };
    }
    case 'revoke':
    case 'release':
      expectExtra(0);
      return { kind: command, identifier: identifierOf(command, subject).identifier };
    case 'agency-name': {
      expectExtra(0);
      const agencyId = agencyArgument(subject);
      const name = AgencyName.safeParse(values.name);
      if (!name.success) throw new UsageError(`--name must be 1-100 characters ${seeHelp}`);
      return { kind: 'agency-name', agencyId, name: name.data };
    }
    case 'limit': {
      expectExtra(1);
      const agencyId = agencyArgument(subject);
      const limit = Number(extra[0]);
      if (!/^\d+$/.test(extra[0] ?? '') || limit < 1 || limit > MAX_AGENT_LIMIT)
        throw new UsageError(`the limit must be a whole number from 1 to ${MAX_AGENT_LIMIT}`);
      return { kind: 'limit', agencyId, limit };
    }
    default:
      expectExtra(0);
      return addTask(subject, values);
  }
}

/** The identifier `command` names, normalised: a usage error when missing or malformed. */
function identifierOf(command: string, raw: string | undefined) {
  const identifier = raw === undefined ? undefined : normalizeIdentifier(raw);
  if (!identifier) throw new UsageError(`${command} needs an identifier ${seeHelp}`);
  if (!identifier.ok) throw new UsageError(`identifier ${identifier.message}`);
  return identifier;
}

/** The agency a command names. */
function agencyArgument(raw: string | undefined): string {
  const agency = AgencyId.safeParse(raw);
  if (!agency.success) throw new UsageError(`agency ${agency.error.issues[0]?.message ?? 'is required'}`);
  return agency.data;
}

function roleOption(value: string | undefined): Role {
  const role = ROLES.find((r) => r === value);
  if (!role) throw new UsageError(`role must be one of ${ROLES.join(', ')}`);
  return role;
}

/** `add <identifier> --name … --agency … [--role …] [--stage …]`: a phone number of the stage's countries. */
function addTask(subject: string | undefined, values: ReturnType<typeof parseOptions>['values']): Task {
  const identifier = identifierOf('add', subject);
  const problem =
    identifier.type === 'PHONE'
      ? phoneNumberProblem(identifier.identifier, allowedCountryCodes(values.stage))
      : undefined;
  if (problem) throw new UsageError(`identifier ${problem}`);
  const name = AgentName.safeParse(values.name);
  if (!name.success) throw new UsageError(`--name ${name.error.issues.at(-1)?.message ?? 'is required'}`);
  const agency = AgencyId.safeParse(values.agency);
  if (!agency.success) throw new UsageError(`--agency ${agency.error.issues[0]?.message ?? 'is required'}`);
  return {
    kind: 'add',
    input: {
      identifier: identifier.identifier,
      type: identifier.type,
      name: name.data,
      agencyId: agency.data,
      role: values.role === undefined ? 'AGENT' : roleOption(values.role),
    },
  };
}

const STAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'stages');

/**
 * The country calling codes an agent's phone number may have: the stage file's with `--stage`, else
 * ALLOWED_PHONE_COUNTRY_CODES; on AWS (TABLE_NAME) one of them is required, since a deployed stage
 * allows only its own; locally every country `npm start` allows (all of them, as it sets none).
 */
function allowedCountryCodes(stage: string | undefined): readonly string[] {
  const fromEnv = process.env.ALLOWED_PHONE_COUNTRY_CODES || undefined;
  let codes = fromEnv;
  if (stage !== undefined) {
    // A stage's name, or the path of a stage file kept elsewhere.
    const file = stage.endsWith('.json') ? stage : join(STAGES_DIR, `${stage}.json`);
    if (!(stage.endsWith('.json') || /^[a-z][a-z0-9-]{0,20}$/.test(stage)) || !existsSync(file))
      throw new UsageError(`--stage: no ${stage.endsWith('.json') ? stage : `infra/stages/${stage}.json`}`);
    const listed = JSON.parse(readFileSync(file, 'utf8'))?.agencyBounds?.allowedPhoneCountryCodes;
    if (!Array.isArray(listed))
      throw new UsageError(`--stage: ${file} has no agencyBounds.allowedPhoneCountryCodes`);
    codes = listed.join(',');
  } else if (codes === undefined && process.env.TABLE_NAME)
    throw new UsageError(
      'a phone number is checked against the stage’s allowed country codes: add --stage <stage> (infra/stages/<stage>.json) or set ALLOWED_PHONE_COUNTRY_CODES',
    );
  try {
    return readAgencyBounds({ ALLOWED_PHONE_COUNTRY_CODES: codes }).ALLOWED_PHONE_COUNTRY_CODES;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const parseOptions = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      agency: { type: 'string' },
      role: { type: 'string' },
      force: { type: 'boolean' },
      stage: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

async function main(): Promise<void> {
  const task = parseCommandLine(process.argv.slice(2));

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
    const output = await perform(store, task);
    if (output === undefined) throw new NoSuchAgentError('no agent is registered under that identifier');
    console.log(JSON.stringify(output, null, 2));
  } finally {
    db.destroy();
    await local?.stop();
  }
}

/** Carries the task out; undefined when the agent it names does not exist. */
async function perform(store: TableHandle, task: Task): Promise<unknown> {
  const clock = systemClock();
  switch (task.kind) {
    case 'add':
      return registerAgent(store, clock, task.input);
    case 'change':
      return changeAgentByIdentifier(store, clock, task.identifier, task.changes, { force: task.force });
    case 'revoke': {
      const agent = await revokeAgentSessions(store, clock, task.identifier);
      return agent && { revoked: agent.identifier, agent_id: agent.id };
    }
    case 'release': {
      const agent = await releaseAgent(store, clock, task.identifier);
      return agent && { released: agent.identifier, agent_id: agent.id, agency_id: agent.agency_id };
    }
    case 'limit':
      await setAgentLimit(store, task.agencyId, task.limit);
      return { agency_id: task.agencyId, agent_limit: task.limit };
    case 'migrate':
      return migrate(store, clock);
    case 'agency-name':
      await store.db.send(new UpdateCommand(agencyNameUpdate(store.tableName, task.agencyId, task.name)));
      return { agency_id: task.agencyId, name: task.name };
    default:
      return listEveryAgent(store);
  }
}

try {
  await main();
} catch (error) {
  if (error instanceof HelpRequested) {
    process.stdout.write(usage);
    process.exit(0);
  }
  if (error instanceof UsageError) fail(error.message, 2);
  if (error instanceof NoSuchAgentError) fail(error.message, 1);
  if (error instanceof ApiError && error.statusCode < 500) fail(error.message, 1);
  fail(`could not reach the agents table: ${(error as Error).name}`, 1);
}
