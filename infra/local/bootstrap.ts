import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { registerAgent } from '#shared/agency/agent-changes.ts';
import { readAgentProfile } from '#shared/agency/agent-item.ts';
import { changeAgentByIdentifier } from '#shared/agency/operator-changes.ts';
import type { Clock } from '#shared/clock.ts';
import { tableDefinition } from '#shared/db/table.ts';
import { IdentifierTakenError } from '#shared/errors.ts';

/** The local table's name; in AWS the stack generates one. */
export const LOCAL_TABLE_NAME = 'flight-booking';

export const DEMO_AGENT = {
  identifier: 'agent@example.com',
  type: 'EMAIL',
  name: 'Demo Agent',
  agencyId: 'demo-agency',
  role: 'ADMIN',
} as const;

/** CreateTable input from the shared table definition (the CDK stack reads the same one). */
function createTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, indexes } = tableDefinition;
  const keyNames = [
    partitionKey,
    sortKey,
    ...indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    // The events pipeline reads it (infra/local/events-pipeline.ts), as the deployed events function does.
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}

/**
 * Creates the table unless it exists. Returns whether it was created. `stream: false` is for the
 * benchmarks' tables, which no event pipeline reads: DynamoDB Local keeping a stream record of every
 * write slows its writes several times over (P5's seeding, P6's parallel bookings), which a deployed
 * table's stream does not.
 */
export async function ensureTable(
  db: DynamoDBDocumentClient,
  tableName: string,
  { stream = true }: { stream?: boolean } = {},
): Promise<boolean> {
  const { StreamSpecification, ...withoutStream } = createTableInput(tableName);
  try {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    // A database made before the events pipeline: its stream is turned on (from now on).
    if (stream && !Table?.StreamSpecification?.StreamEnabled)
      await db.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification }));
    return false;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await db.send(new CreateTableCommand(stream ? { ...withoutStream, StreamSpecification } : withoutStream));
  return true;
}

/**
 * Registers the demo agent, an ADMIN of its agency, on a fresh database. A demo agent stored before
 * roles existed is made ADMIN once (which also gives it its session state); otherwise it is left alone.
 */
export async function ensureDemoAgent(
  db: DynamoDBDocumentClient,
  tableName: string,
  clock: Clock,
): Promise<void> {
  const store = { db, tableName };
  const existing = (await readAgentProfile(store, DEMO_AGENT.identifier))?.agent;
  if (existing) {
    if (existing.updated_at === undefined && existing.role !== 'ADMIN')
      await changeAgentByIdentifier(store, clock, DEMO_AGENT.identifier, { role: 'ADMIN' });
    return;
  }
  try {
    await registerAgent(store, clock, DEMO_AGENT);
  } catch (error) {
    if (!(error instanceof IdentifierTakenError)) throw error;
  }
}

/**
 * The local master signing key: generated once (384 random bits) into `<dataDir>/signing.key`,
 * readable by the owner only, and reused on every start so sessions survive a restart.
 */
export async function ensureSigningKeyFile(dataDir: string): Promise<string> {
  const file = join(dataDir, 'signing.key');
  try {
    await readFile(file, 'utf8');
  } catch {
    await writeFile(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
  }
  return file;
}
