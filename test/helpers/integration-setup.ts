import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDocumentClient } from '#shared/db/client.ts';
import { ensureTable } from '../../infra/local/bootstrap.ts';

/**
 * Runs before each integration test file, before it imports any handler: a fresh table, a fresh data
 * directory with its own signing key, and the environment a function reads at cold start. Log lines
 * are captured (`log-capture.ts`) instead of cluttering the output.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'flight-booking-test-'));
const keyFile = join(dataDir, 'signing.key');
writeFileSync(keyFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
const tableName = `test-${randomBytes(6).toString('hex')}`;
const endpoint = inject('dynamodbEndpoint');

Object.assign(process.env, {
  TABLE_NAME: tableName,
  DYNAMODB_ENDPOINT: endpoint,
  SIGNING_KEY_FILE: keyFile,
  CODE_SENDER: 'outbox',
  DATA_DIR: dataDir,
  OTP_SEND_MIN_MS: '20',
  LOG_LEVEL: 'info',
  AWS_REGION: 'us-east-1',
});
delete process.env.SIGNING_KEY_SECRET_ID;

await import('./log-capture.ts');

const db = createDocumentClient(endpoint);
await ensureTable(db, tableName);
db.destroy();
