import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, inject, vi } from 'vitest';
import { createDocumentClient } from '#shared/db/client.ts';
import { ensureTable } from '../../infra/local/bootstrap.ts';

/**
 * Runs before each integration test file, before it imports any handler: a fresh table, a fresh data
 * directory with its own signing key, and the environment a function reads at cold start. Log lines
 * are captured (`log-capture.ts`) instead of cluttering the output.
 *
 * The files share their worker processes (vitest.config.ts), so each starts here as in a process of
 * its own: every module of the repository is evaluated anew (the handlers read this file's
 * environment at their cold start; packages under node_modules stay loaded, which is the saving), the
 * environment is the one the worker started with before this file's is added, and what the file
 * changed in the process (log capture, stubbed AWS clients) is undone when it ends.
 */
vi.resetModules();
const globals = globalThis as { workerEnvironment?: Record<string, string | undefined> };
globals.workerEnvironment ??= { ...process.env };
for (const name of Object.keys(process.env))
  if (!(name in globals.workerEnvironment) && !name.startsWith('VITEST')) delete process.env[name];
for (const [name, value] of Object.entries(globals.workerEnvironment))
  if (!name.startsWith('VITEST')) process.env[name] = value;

const dataDir = mkdtempSync(join(tmpdir(), 'flight-booking-test-'));
const keyFile = join(dataDir, 'signing.key');
writeFileSync(keyFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
const tableName = `test-${randomBytes(6).toString('hex')}`;
const endpoints = inject('dynamodbEndpoints');
// VITEST_POOL_ID numbers the workers from 1: each worker talks to its own DynamoDB Local.
const endpoint = endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length] as string;

Object.assign(process.env, {
  TABLE_NAME: tableName,
  DYNAMODB_ENDPOINT: endpoint,
  SIGNING_KEY_FILE: keyFile,
  CODE_SENDER: 'outbox',
  NOTICE_SENDER: 'file',
  // Receivers in the tests listen on 127.0.0.1; the deployed checks are tested with the policy given.
  WEBHOOK_URL_POLICY: 'local',
  DATA_DIR: dataDir,
  OTP_SEND_MIN_MS: '20',
  LOG_LEVEL: 'info',
  AWS_REGION: 'us-east-1',
});
delete process.env.SIGNING_KEY_SECRET_ID;

const { captureLogLines, capturedLogLines } = await import('./log-capture.ts');
const stopCapture = captureLogLines((line) => capturedLogLines.push(line));

const db = createDocumentClient(endpoint);
// Without a stream: DynamoDB Local keeping a stream record of every write costs it about a quarter
// more CPU a write, and most files never read one. A file that does turns it on when it starts its
// event pipeline (startTestPipeline, test/helpers/events.ts).
await ensureTable(db, tableName, { stream: false });
db.destroy();

/**
 * After every integration file: no log line may carry a sign-in code that was sent, a token (ours or
 * Duffel's), the signing key or the table name (the outbox file itself is the only place codes appear).
 */
afterAll(async () => {
  stopCapture();
  const { readOutbox } = await import('./outbox.ts');
  const codes = new Set((await readOutbox(dataDir)).map((entry) => entry.code));
  const key = readFileSync(keyFile, 'utf8').trim();
  for (const line of capturedLogLines) {
    if (/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/.test(line))
      throw new Error(`a log line carries a token: ${line}`);
    if (/duffel_(test|live)_/.test(line)) throw new Error(`a log line carries a Duffel token: ${line}`);
    if (line.includes(key) || line.includes(tableName))
      throw new Error(`a log line carries the key or the table name: ${line}`);
    for (const code of /\b\d{6}\b/.exec(line) ?? []) {
      if (codes.has(code)) throw new Error(`a log line carries a sign-in code: ${line}`);
    }
  }
});
