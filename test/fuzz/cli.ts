/**
 * `npm run fuzz -- --runs N --seed S [--url URL] [--data-dir DIR] [--concurrency C]`: the schema-driven
 * fuzzer for long runs. Starts its own local server (fresh DATA_DIR, DynamoDB Local) unless --url is
 * given; with --url, sign-in codes are read from --data-dir (default: $DATA_DIR or .data, as npm start).
 * Prints requests by operation and status and every finding with its seed; exits 1 on any finding.
 */
import { parseArgs } from 'node:util';
import { startLocalServer } from '#test/helpers/local-server.ts';
import { formatReport, runFuzz } from './runner.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    url: { type: 'string' },
    'data-dir': { type: 'string' },
    concurrency: { type: 'string', default: '4' },
  },
});

const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const runs = Number(values.runs);
if (!Number.isInteger(seed) || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run fuzz -- --runs N --seed S [--url URL] [--data-dir DIR] [--concurrency C]');
  process.exit(2);
}

const server = values.url ? undefined : await startLocalServer();
const url = values.url ?? server?.url ?? '';
const dataDir = values['data-dir'] ?? server?.dataDir ?? process.env.DATA_DIR ?? '.data';
console.log(`fuzzing ${url} with seed ${seed}, ${runs} runs`);
try {
  const report = await runFuzz({
    url,
    dataDir,
    seed,
    runs,
    concurrency: Number(values.concurrency),
    logoutSessions: Math.min(20, Math.ceil(runs / 200)),
  });
  console.log(
    formatReport(report, (f) => `npm run fuzz -- --seed ${f.seed} --runs ${Math.max(f.caseIndex + 1, 1)}`),
  );
  process.exitCode = report.findings.length > 0 ? 1 : 0;
} catch (error) {
  console.error(`fuzz seed ${seed} failed to run:`, error);
  process.exitCode = 1;
} finally {
  await server?.stop();
}
