import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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
 * compile and later starts run the real one); each start's pid is appended to the returned file.
 */
function javaFailingFirst(failing: number, instead: string): string {
  const real = execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'fake-java-'));
  const starts = join(dir, 'starts');
  writeFileSync(
    join(dir, 'java'),
    [
      '#!/bin/sh',
      `case "$*" in *jdk.compiler*) exec '${real}' "$@";; esac`,
      `echo $$ >> '${starts}'`,
      `[ "$(wc -l < '${starts}')" -gt ${failing} ] && exec '${real}' "$@"`,
      instead,
    ].join('\n'),
  );
  chmodSync(join(dir, 'java'), 0o755);
  process.env.PATH = [dir, process.env.PATH].join(delimiter);
  return starts;
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
      const client = new DynamoDBClient({
        endpoint: dynamo.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      client.destroy();
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
