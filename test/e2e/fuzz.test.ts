import { beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runFuzz } from '#test/fuzz/runner.ts';
import { ownAdmin, sharedServer } from '#test/helpers/shared-server.ts';

/**
 * The schema-driven fuzzer against the dev server, bounded for `npm test`: a fixed seed and about a
 * thousand requests (≈ 10-20 s on two quiet cores). `npm run fuzz -- --runs N --seed S` runs it longer.
 * All CPU (the client and the server on one machine): 33-55 s of a loaded run (load 9-37), so its
 * timeout is 180 s, three times the slowest loaded figure's half.
 */
const SEED = 20_261_123;
const RUNS = 900;

// The shared server, as an ADMIN of an agency of its own: its agents, bookings and sign-ins meet no other file's.
const server = sharedServer();
let admin: Awaited<ReturnType<typeof ownAdmin>>;
beforeAll(async () => {
  admin = await ownAdmin(server, 'fuzz-agency');
});

describe('e2e: schema-driven HTTP fuzzer', () => {
  it('never answers 5xx, always as the served document says, never refuses a valid request as malformed nor accepts a body the document refuses', async () => {
    const report = await runFuzz({ url: server.url, dataDir: server.dataDir, seed: SEED, runs: RUNS, admin });
    const text = formatReport(report, (f) => `npm run fuzz -- --seed ${f.seed} --runs ${f.caseIndex + 1}`);
    expect(report.requests).toBeGreaterThanOrEqual(RUNS);
    // One message: the seed, each finding's request (tokens elided) and response.
    expect(report.findings.length, text).toBe(0);
  }, 180_000);
});
