import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startDynamoDbLocal } from '../../../infra/local/dynamodb-local.ts';
import { alive, startListening } from '../../helpers/local-server.ts';

/** Connects to address:port; resolves 'open', or the error code (ECONNREFUSED when nothing listens there). */
function probe(address: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('open');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/** This machine's own addresses other than loopback: where a neighbour on the network would connect. */
const outsideAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((info) => info && !info.internal && info.family === 'IPv4')
  .map((info) => info?.address ?? '');

/** The local addresses listening on `port`, from the kernel's socket table (Linux). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // Column 2 is local address:port in hex, column 4 the state; 0A is LISTEN.
      .filter((columns) => columns[1]?.endsWith(`:${hexPort}`) && columns[3] === '0A')
      .map((columns) => columns[1]?.split(':')[0] ?? ''),
  );
}

describe('DynamoDB Local (npm start, the agents CLI and the tests all start it the same way)', () => {
  // The run's DynamoDB Locals, one per test worker (test/helpers/dynamodb-global-setup.ts).
  const ports = inject('dynamodbEndpoints').map((endpoint) => Number(new URL(endpoint).port));

  it('answers on 127.0.0.1', async () => {
    for (const port of ports) expect(await probe('127.0.0.1', port)).toBe('open');
  });

  it('is not reachable on any other address of this machine: it checks no signature', async () => {
    expect(outsideAddresses.length, 'this test needs a network interface besides loopback').toBeGreaterThan(
      0,
    );
    for (const port of ports)
      for (const address of outsideAddresses)
        expect(await probe(address, port), address).toBe('ECONNREFUSED');
  });

  it('listens on the loopback address only, as the kernel reports it', () => {
    for (const port of ports) {
      const addresses = listeningAddresses(port);
      expect(addresses.length).toBeGreaterThan(0);
      // 127.0.0.1 in /proc's byte order, as IPv4 or as the IPv4-mapped IPv6 address ::ffff:127.0.0.1.
      for (const address of addresses)
        expect(['0100007F', '0000000000000000FFFF00000100007F']).toContain(address);
    }
  });
});

/**
 * A `java` first on PATH whose first `failing` DynamoDB Local starts run `instead` (the launcher's
 * preparation, the archive's maker and later starts run the real one); each start's pid is appended
 * to the returned file.
 */
function javaFailingFirst(failing: number, instead: string): string {
  const real = execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'fake-java-'));
  const starts = join(dir, 'starts');
  writeFileSync(
    join(dir, 'java'),
    [
      '#!/bin/sh',
      // Only DynamoDB Local's starts: not the launcher's preparation, nor the class-data archive's maker.
      `case "$*" in *ArchiveClassesAtExit*) exec '${real}' "$@";; *LoopbackDynamoDbLocal*) ;; *) exec '${real}' "$@";; esac`,
      `echo $$ >> '${starts}'`,
      `[ "$(wc -l < '${starts}')" -gt ${failing} ] && exec '${real}' "$@"`,
      instead,
    ].join('\n'),
  );
  chmodSync(join(dir, 'java'), 0o755);
  process.env.PATH = [dir, process.env.PATH].join(delimiter);
  return starts;
}

/** ListTables' answer from the DynamoDB Local at `endpoint`. */
async function tableNames(endpoint: string): Promise<string[] | undefined> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames;
  } finally {
    client.destroy();
  }
}

const pids = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map(Number);
describe('fn: startDynamoDbLocal', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('starts a fresh process when the first exits before answering (its port taken, say)', async () => {
    const starts = javaFailingFirst(1, 'echo "Address already in use" >&2; exit 1');
    const dynamo = await startDynamoDbLocal();
    try {
      expect(await tableNames(dynamo.endpoint)).toEqual([]);
      expect(pids(starts)).toHaveLength(2);
    } finally {
      await dynamo.stop();
    }
  }, 150_000);

  it('kills a start that does not answer in time and one fresh start, then names the deadline', async () => {
    const starts = javaFailingFirst(2, 'exec sleep 600');
    await expect(startDynamoDbLocal({ answerWithinMs: 1000 })).rejects.toThrow(
      /DynamoDB Local did not answer within 1 s/,
    );
    expect(pids(starts)).toHaveLength(2);
    expect(pids(starts).filter(alive)).toEqual([]);
  }, 60_000);
});

describe('DynamoDB Local stream records (LoopbackDynamoDbLocal.java)', () => {
  it('are found through an index on their stream, not by reading every record every table wrote', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dynamodb-index-'));
    const dynamo = await startDynamoDbLocal({ dataDir });
    try {
      // The one database -sharedDb gives every caller, as DynamoDB Local names it.
      const database = new DatabaseSync(join(dataDir, 'shared-local-instance.db'), { readOnly: true });
      const plan = database
        .prepare('EXPLAIN QUERY PLAN SELECT MIN(SequenceNumber) FROM us WHERE StreamID = ?')
        .all('a-stream')
        .map((row) => String(row.detail));
      database.close();
      // Without the index: "SCAN us" (every record of every table's stream, on every request).
      expect(plan.join('; ')).toMatch(/SEARCH us USING COVERING INDEX us_stream_sequence \(StreamID=\?\)/);
    } finally {
      await dynamo.stop();
    }
  }, 150_000);
});

describe('fn: startDynamoDbLocal, stop', () => {
  it('leaves no timer behind once the JVM has exited, so the caller can exit at once', async () => {
    const dynamo = await startDynamoDbLocal();
    const timers = () => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;
    const before = timers();

    await dynamo.stop();
    expect(timers()).toBe(before);
  }, 150_000);
});

describe('DynamoDB Local started by a process that is killed', () => {
  it('ends with that process, leaving no database behind', async () => {
    const parent = await startListening([
      '--input-type=module',
      '-e',
      `const { startDynamoDbLocal } = await import(${JSON.stringify(`${process.cwd()}/infra/local/dynamodb-local.ts`)});
       console.log('listening on ' + (await startDynamoDbLocal()).endpoint);`,
    ]);
    const port = Number(new URL(parent.url).port);
    expect(await probe('127.0.0.1', port)).toBe('open');

    parent.process.kill('SIGKILL');

    // Polled (at most a minute): the JVM notices its stdin close and exits.
    for (let tries = 0; tries < 600 && (await probe('127.0.0.1', port)) === 'open'; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await probe('127.0.0.1', port)).toBe('ECONNREFUSED');
  }, 150_000);
});

/** The JVM serving `endpoint` (found by its command line's port): its class path and mapped files. */
function jvmOf(endpoint: string): { jar: string; mapped: string[] } {
  const port = new URL(endpoint).port;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args[0] !== 'java' || args[args.indexOf('-port') + 1] !== port) continue;
    const mapped = readFileSync(`/proc/${pid}/maps`, 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[5] ?? '');
    return { jar: args[args.indexOf('-cp') + 1] ?? '', mapped: [...new Set(mapped)] };
  }
  throw new Error(`no JVM listens on ${port}`);
}

/** Starts DynamoDB Local in a process of its own, which stops it and exits (once its archive is made). */
async function startInAnotherProcess(): Promise<void> {
  const script = `const { startDynamoDbLocal } = await import(${JSON.stringify(`${process.cwd()}/infra/local/dynamodb-local.ts`)});
     await (await startDynamoDbLocal()).stop();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 150_000 });
}

/** One of the run's DynamoDB Locals (test/helpers/dynamodb-global-setup.ts), started as any other. */
const runsDynamoDbLocal = () => inject('dynamodbEndpoints')[0] ?? '';

describe('DynamoDB Local class-data archive', () => {
  it('is made by the first start that finds none, and every later start maps it', async () => {
    const folder = dirname(jvmOf(runsDynamoDbLocal()).jar);
    const archive = join(folder, 'classes.jsa');
    rmSync(archive, { force: true });

    await startInAnotherProcess();

    expect(existsSync(archive)).toBe(true);
    // The maker's draft and lock are gone with it.
    expect(readdirSync(folder).filter((name) => /\.(draft|lock)$/.test(name))).toEqual([]);
    const later = await startDynamoDbLocal();
    try {
      expect(jvmOf(later.endpoint).mapped).toContain(archive);
    } finally {
      await later.stop();
    }
  }, 300_000);

  it('is passed over when the JVM cannot use it (a damaged file, say): the start still answers', async () => {
    const archive = join(dirname(jvmOf(runsDynamoDbLocal()).jar), 'classes.jsa');
    const kept = `${archive}.kept-${process.pid}`;
    const damaged = `${archive}.damaged-${process.pid}`;
    writeFileSync(damaged, randomBytes(100_000));
    const had = existsSync(archive);
    if (had) renameSync(archive, kept);
    renameSync(damaged, archive);
    try {
      const dynamo = await startDynamoDbLocal();
      try {
        expect(await tableNames(dynamo.endpoint)).toEqual([]);
        expect(jvmOf(dynamo.endpoint).mapped).not.toContain(archive);
      } finally {
        await dynamo.stop();
      }
    } finally {
      if (had) renameSync(kept, archive);
      else rmSync(archive, { force: true });
    }
  }, 300_000);
});

describe('npm install’s last step (infra/local/prepare.ts, the postinstall script)', () => {
  it('readies DynamoDB Local (the archive a start would make) and says so', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'postinstall'], {
      timeout: 150_000,
    });

    expect(stdout).toContain('DynamoDB Local is ready');
    expect(existsSync(join(dirname(jvmOf(runsDynamoDbLocal()).jar), 'classes.jsa'))).toBe(true);
  }, 300_000);

  it('never fails the install: without Java it says so and leaves the preparing to the first start', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['infra/local/prepare.ts'], {
      env: { ...process.env, PATH: dirname(process.execPath) },
      timeout: 60_000,
    });

    expect(stdout).toContain('DynamoDB Local was not prepared now');
    expect(stdout).toContain('Java 17');
  }, 120_000);
});
