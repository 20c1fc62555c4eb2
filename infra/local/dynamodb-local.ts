import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  alive,
  draftArchive,
  exerciseForArchive,
  type JavaLaunch,
  JavaMissing,
  javaLaunch,
} from './dynamodb-local-classes.ts';

const run = promisify(execFile);
/** The JVM's class-data sharing says nothing: an archive it cannot use is passed over quietly. */
const QUIET_CDS = ['-Xlog:cds=off', '-Xlog:cds+dynamic=off'];

export interface DynamoDbLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only (see LoopbackDynamoDbLocal.java for why and how),
 * with the class-data archive of its classes once one is made: the JVM maps the classes it would
 * otherwise load and verify one by one (measured: 2.26 → 1.74 s of CPU for a start and a demo
 * journey). An archive the JVM cannot use (another JVM build, a changed class path) is ignored, quietly.
 */
async function spawnLoopbackDynamoDbLocal(port: number, dataDir: string | undefined, jvmArgs: string[]) {
  const launch = await javaLaunch();
  const archive = existsSync(launch.archive) ? [`-XX:SharedArchiveFile=${launch.archive}`, ...QUIET_CDS] : [];
  const child = spawn(
    'java',
    [
      ...archive,
      ...jvmArgs,
      `-Djava.library.path=${launch.libraries}`,
      '-cp',
      launch.jar,
      'LoopbackDynamoDbLocal',
      '-port',
      String(port),
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
      '-sharedDb',
      '-disableTelemetry',
    ],
    // stdin stays a pipe from this process: the launcher exits when it closes (LoopbackDynamoDbLocal.java).
    { stdio: 'pipe' },
  );
  return { child, launch };
}

/**
 * How long one DynamoDB Local may take to answer, and how many are started before giving up. A quiet
 * start answers in 1–2 s; on a 2-core machine at a load of 4 to 20 (a test run beside `npm start` and
 * busy loops) starts took up to 15 s. A start that has not answered in a minute is stuck rather than
 * slow (or lost its port to another process between choosing and binding it): it is killed and one
 * fresh process, on a fresh port, gets another minute.
 */
const ANSWER_WITHIN_MS = 60_000;
const STARTS = 2;

/**
 * Starts the official DynamoDB Local (Java 17+) on the loopback interface only, and resolves once it
 * answers. It checks no signature, so it must not be reachable from the network. A start that exits or
 * does not answer within `answerWithinMs` is killed and started once more, afresh.
 *
 * @param options.dataDir absolute directory for its database file; omit to keep it in memory
 */
export async function startDynamoDbLocal(
  options: { dataDir?: string; answerWithinMs?: number } = {},
): Promise<DynamoDbLocal> {
  if (options.dataDir) {
    if (!isAbsolute(options.dataDir)) throw new Error('DynamoDB Local needs an absolute data directory');
    mkdirSync(options.dataDir, { recursive: true });
  }
  for (let start = 1; ; start++) {
    try {
      const local = await startOnce(options.dataDir, options.answerWithinMs ?? ANSWER_WITHIN_MS);
      archiveWhenMissing(local.launch);
      return {
        endpoint: local.endpoint,
        stop: async () => {
          await local.stop();
        },
      };
    } catch (error) {
      if (start >= STARTS || error instanceof JavaMissing) throw error;
      console.error(`${(error as Error).message}; starting a fresh one`);
    }
  }
}

interface Started {
  readonly endpoint: string;
  readonly launch: JavaLaunch;
  /** Resolves true once the JVM has ended of itself after SIGTERM, false when it had to be killed. */
  stop(graceMs?: number): Promise<boolean>;
}

/** One DynamoDB Local process on a fresh port, answering within `answerWithinMs`, else killed. */
async function startOnce(
  dataDir: string | undefined,
  answerWithinMs: number,
  jvmArgs: string[] = [],
): Promise<Started> {
  const port = await freePort();
  const { child, launch } = await spawnLoopbackDynamoDbLocal(port, dataDir, jvmArgs);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let failure: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    failure = error.code === 'ENOENT' ? new JavaMissing() : error;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    failure ??= new Error(`DynamoDB Local exited (${code}) before answering: ${output.trim().slice(-500)}`);
  });
  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return child.signalCode === null;
    child.kill('SIGTERM');
    // Unref'd: once the JVM has exited, the deadline must not keep the caller's process alive for 5 s.
    const deadline = sleep(graceMs, false, { ref: false });
    const ended = await Promise.race([exited.then(() => true), deadline]);
    if (!ended) child.kill('SIGKILL');
    await exited;
    return ended;
  };
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await answering(endpoint, answerWithinMs, () => failure);
  } catch (error) {
    // Killed and gone before a fresh start may open the same data directory.
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await exited;
    throw error;
  }
  return { endpoint, launch, stop };
}

/** Resolves once `endpoint` answers ListTables; throws `failed()` when it is set, or at the deadline. */
async function answering(endpoint: string, withinMs: number, failed: () => Error | undefined) {
  const probe = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + withinMs;
  try {
    for (;;) {
      const failure = failed();
      if (failure) throw failure;
      try {
        // A listening JVM too busy to answer must not hold the probe past the deadline.
        const remaining = Math.max(1, deadline - Date.now());
        await probe.send(new ListTablesCommand({ Limit: 1 }), {
          abortSignal: AbortSignal.timeout(remaining),
        });
        return;
      } catch (error) {
        if (Date.now() >= deadline)
          throw new Error(
            `DynamoDB Local did not answer within ${withinMs / 1000} s: ${(error as Error).message}`,
          );
        await sleep(50);
      }
    }
  } finally {
    probe.destroy();
  }
}

let archiving: Promise<void> | undefined;

/**
 * The class-data archive later starts map, made once per launch (release, launcher, JVM) in the
 * background of the first start that finds none, by one process at a time (a lock file holding its
 * pid): a JVM started for the purpose serves a short workload of the requests the service makes, so
 * the classes those load are archived too, and writes the archive as it exits. It is put in place
 * only once a JVM required to use it has started with it. Nothing waits for it: until it is there,
 * starts load their classes as before; a failure leaves no archive, and the next process tries again.
 */
function archiveWhenMissing(launch: JavaLaunch): void {
  if (archiving || existsSync(launch.archive)) return;
  archiving = makeArchive(launch).catch(() => undefined);
}

/**
 * Readies DynamoDB Local's launch and its class-data archive now, waiting for both: `npm install`'s last
 * step (infra/local/prepare.ts), so that no start after an install pays for them. True once the archive
 * is in place; false when another process is making it.
 */
export async function prepareDynamoDbLocal(): Promise<boolean> {
  const launch = await javaLaunch();
  if (!existsSync(launch.archive)) await makeArchive(launch);
  return existsSync(launch.archive);
}

async function makeArchive(launch: JavaLaunch): Promise<void> {
  const lock = `${launch.archive}.lock`;
  if (!takeLock(lock)) return;
  const draft = draftArchive(launch.archive, process.pid);
  try {
    const local = await startOnce(undefined, ANSWER_WITHIN_MS, [
      `-XX:ArchiveClassesAtExit=${draft}`,
      ...QUIET_CDS,
    ]);
    let ended = false;
    try {
      await exerciseForArchive(local.endpoint);
    } finally {
      // Writing the archive as it exits takes about two seconds of CPU: a loaded machine gets a minute.
      ended = await local.stop(60_000);
    }
    if (!ended) return;
    await run('java', ['-Xshare:on', `-XX:SharedArchiveFile=${draft}`, '-cp', launch.jar, '-version']);
    renameSync(draft, launch.archive);
  } finally {
    rmSync(draft, { force: true });
    rmSync(lock, { force: true });
  }
}

/** Creates `lock` holding this process's pid; false when a live process holds it. A dead one's is taken over. */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      let holder = 0;
      try {
        holder = Number(readFileSync(lock, 'utf8').trim());
      } catch {
        // Released meanwhile: try again.
      }
      // A maker that died (or a pid since reused, after ten minutes) leaves its lock to be taken over.
      if (alive(holder) && Date.now() - mtime(lock) < 10 * 60_000) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
