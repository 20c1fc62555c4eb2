/**
 * P5 alone: `node test/bench/scale-cli.ts` starts DynamoDB Local, sets the environment a function sees
 * (as run.ts does, before the context is imported), runs {@link measureScale} and prints its Markdown.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';

const started = Date.now();
const log = (message: string) =>
  process.stderr.write(`[scale ${Math.round((Date.now() - started) / 1000)}s] ${message}\n`);
const work = mkdtempSync(join(tmpdir(), 'flight-scale-'));
const keyFile = join(work, 'signing.key');
writeFileSync(keyFile, randomBytes(48).toString('base64url'));
const dynamo = await startDynamoDbLocal();
const functionEnv = {
  TABLE_NAME: 'bench',
  DYNAMODB_ENDPOINT: dynamo.endpoint,
  SIGNING_KEY_FILE: keyFile,
  DATA_DIR: work,
  LOG_LEVEL: 'error',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
};
Object.assign(process.env, functionEnv);
try {
  const { context } = await import('../../shared/context.ts');
  const { measureScale } = await import('./scale.ts');
  const samples = process.env.SCALE_SAMPLES ? Number(process.env.SCALE_SAMPLES) : undefined;
  const { title, lines } = await measureScale({ context, log, samplesPerVariant: samples });
  process.stdout.write(`## ${title}\n\n${lines.join('\n')}\n`);
  log('done');
} finally {
  await dynamo.stop();
}
