import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** What a running `npm start` tells other local tools (the agents CLI) about itself. */
interface LocalStackInfo {
  dynamodb_endpoint: string;
  api_url: string;
  pid: number;
}

const STATE_FILE = 'local.json';

/** `DATA_DIR` as an absolute path (DynamoDB Local refuses relative ones); `.data` by default. */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || '.data');
}

export async function writeLocalStackInfo(dataDir: string, info: LocalStackInfo): Promise<void> {
  await writeFile(join(dataDir, STATE_FILE), `${JSON.stringify(info, null, 2)}\n`);
}

export async function removeLocalStackInfo(dataDir: string): Promise<void> {
  await rm(join(dataDir, STATE_FILE), { force: true });
}

/** The running local stack on `dataDir`, if one is up and its DynamoDB Local answers. */
export async function findRunningLocalStack(dataDir: string): Promise<LocalStackInfo | undefined> {
  let info: LocalStackInfo;
  try {
    info = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')) as LocalStackInfo;
  } catch {
    return undefined;
  }
  const probe = new DynamoDBClient({
    endpoint: info.dynamodb_endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 500, requestTimeout: 1000 },
  });
  try {
    await probe.send(new ListTablesCommand({ Limit: 1 }));
    return info;
  } catch {
    return undefined;
  } finally {
    probe.destroy();
  }
}
