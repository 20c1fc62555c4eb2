/**
 * P1 cold start: each function's bundle started in a fresh Node process on the deployed init path
 * (signing key through Secrets Manager, codes through SES or SNS, both answered by a local stand-in),
 * against the floor of a bundle holding only the DynamoDB client. `BENCH_COLD_RUNS` rounds (15);
 * instructions counted by cachegrind when valgrind is present (`BENCH_CACHEGRIND=0` skips it).
 */

import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { replaceChallenge } from '../../shared/auth/otp-challenge-item.ts';
import { hashCode } from '../../shared/auth/otp-code.ts';
import { exampleTraveller } from '../../shared/bookings/example-traveller.ts';
import { addDays } from '../../shared/flights/local-time.ts';
import { routes } from '../../shared/routes.ts';
import { apiEvent } from '../helpers/api.ts';
import { startAwsStandIn } from './aws-stand-in.ts';
import { median, percentile, round, type Section, shuffled, table, verdict } from './lib.ts';
import { type Bench, root } from './setup.ts';

const run = promisify(execFile);
const COLD_GOAL = 1.15;
const INSTR_GOAL = 1.2;
const SECRET_ID = 'flight-booking/bench/signing-key';
const FLOOR = 'ddb-only (one GetItem)';

interface ColdRun {
  processMs: number;
  importMs: number;
  invokeMs: number;
  status: number;
}

/**
 * Writes `runs + 1` first-invocation events per row (one per round, and one for cachegrind): every
 * route, plus send-otp by SMS and search and booking-create of a round trip (the same bundles).
 */
async function prepareEvents(bench: Bench, runs: number): Promise<Map<string, string[]>> {
  const { context, clock, invoke, pathOf, newAgent, bearer, offerFor, flightAt } = bench;
  const eventsDir = join(bench.work, 'events');
  mkdirSync(eventsDir);
  const coldAgent = await newAgent('cold');
  const coldAuth = await bearer(coldAgent);
  const bookingsToCancel: string[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const created = await invoke(
      'booking-create',
      pathOf('booking-create'),
      offerFor(flightAt(8, i), 5, 'ECONOMY'),
      coldAuth,
    );
    bookingsToCancel.push(created.body.data.booking_id);
  }
  const bookingToGet = bookingsToCancel.pop() ?? '';
  const coldAdmin = await bearer(await newAgent('cold-admin', 'ADMIN'));
  const colleagues: string[] = [];
  for (let i = 0; i <= runs; i++) colleagues.push((await newAgent('cold-colleague', 'AGENT')).id);
  const eventFiles = new Map<string, string[]>();
  for (const route of routes) {
    const files: string[] = [];
    for (let i = 0; i <= runs; i++) {
      let body: unknown = {};
      let headers: Record<string, string> = coldAuth;
      switch (route.id) {
        case 'send-otp': {
          const agent = await newAgent('cold-send');
          body = { identifier: agent.identifier, type: 'EMAIL' };
          headers = {};
          break;
        }
        case 'verify-otp': {
          const agent = await newAgent('cold-verify');
          const challengeId = `bench-${i}`;
          const codeHash = hashCode(
            context.keys.otp,
            { identifier: agent.identifier, challengeId },
            '123456',
          );
          await replaceChallenge(context, agent.identifier, { challengeId, codeHash }, clock.now());
          body = { identifier: agent.identifier, code: '123456' };
          headers = {};
          break;
        }
        case 'logout':
          headers = await bearer(coldAgent);
          break;
        case 'search':
          body = { origin: 'LHR', destination: 'JFK', departure_date: bench.travelDate };
          break;
        case 'booking-create':
          body = offerFor(flightAt(9, i), 5, 'ECONOMY');
          break;
        case 'booking-get':
          body = { booking_id: bookingToGet };
          break;
        case 'booking-list':
          body = { limit: 20 };
          break;
        case 'booking-cancel':
          body = { booking_id: bookingsToCancel[i] };
          break;
        case 'agency-agents-list':
          body = { limit: 20 };
          headers = coldAdmin;
          break;
        case 'agency-agents-create':
          body = { identifier: `cold-new-${i}@example.com`, type: 'EMAIL', name: 'New Colleague' };
          headers = coldAdmin;
          break;
        case 'agency-agents-update':
          body = { agent_id: colleagues[i], name: 'Renamed Colleague' };
          headers = coldAdmin;
          break;
      }
      const file = join(eventsDir, `${route.id}-${i}.json`);
      writeFileSync(file, JSON.stringify(apiEvent({ path: route.path, body, headers })));
      files.push(file);
    }
    eventFiles.set(route.id, files);
  }
  // send-otp by SMS: the same bundle, the other channel.
  const smsEvents: string[] = [];
  for (let i = 0; i <= runs; i++) {
    const agent = await newAgent('cold-sms', 'AGENT', 'PHONE');
    const file = join(eventsDir, `send-otp-sms-${i}.json`);
    const body = { identifier: agent.identifier, type: 'PHONE' };
    writeFileSync(file, JSON.stringify(apiEvent({ path: pathOf('send-otp'), body, headers: {} })));
    smsEvents.push(file);
  }
  eventFiles.set('send-otp (SMS)', smsEvents);
  // Round trips: the same bundles, searching and booking both ways (each run books its own offer).
  const roundTripEvents = { search: [] as string[], create: [] as string[] };
  for (let i = 0; i <= runs; i++) {
    const outbound = addDays(bench.today, 12 + i);
    const search = {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: outbound,
      return_date: addDays(outbound, 7),
    };
    const offer = (await invoke('search', pathOf('search'), { ...search, limit: 1 }, coldAuth)).body.data[0];
    const booking = {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      ...exampleTraveller,
    };
    for (const [kind, path, body] of [
      ['search', pathOf('search'), search],
      ['create', pathOf('booking-create'), booking],
    ] as const) {
      const file = join(eventsDir, `${kind}-round-trip-${i}.json`);
      writeFileSync(file, JSON.stringify(apiEvent({ path, body, headers: coldAuth })));
      roundTripEvents[kind].push(file);
    }
  }
  eventFiles.set('search (round trip)', roundTripEvents.search);
  eventFiles.set('booking-create (round trip)', roundTripEvents.create);
  return eventFiles;
}

/** One cold start: spawn → import → first invocation → answer, timed from outside and inside. */
function coldStartOnce(env: NodeJS.ProcessEnv, bundlePath: string, eventFile: string): Promise<ColdRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(root, 'test/bench/harness.mjs'), bundlePath, eventFile], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"importMs"'));
      if (line) {
        const parsed = JSON.parse(line);
        resolve({ processMs: performance.now() - started, ...parsed });
      }
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code) => {
      if (!out.includes('importMs')) reject(new Error(`cold start failed (${code}): ${err.slice(-400)}`));
    });
  });
}

export async function coldStart(bench: Bench): Promise<Section> {
  const { log } = bench;
  const bundles = await bench.bundles();
  const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
  log(`preparing ${COLD_RUNS + 1} first-invocation events per function`);
  const eventFiles = await prepareEvents(bench, COLD_RUNS);
  const bareEvent = join(bench.work, 'events', 'bare.json');
  writeFileSync(bareEvent, '{}');

  /**
   * The deployed init and send path: the signing key read through the Secrets Manager client, codes sent
   * through the SES and SNS clients, all answered by a local stand-in in their wire formats; access logs
   * on at info (into a pipe). Only DynamoDB Local and the stand-in replace AWS.
   */
  const standIn = await startAwsStandIn({ id: SECRET_ID, value: readFileSync(bench.keyFile, 'utf8') });
  try {
    const { SIGNING_KEY_FILE: _localKeyFile, ...parentEnv } = { ...process.env, ...bench.functionEnv };
    const childEnv = {
      ...parentEnv,
      ...standIn.env,
      SIGNING_KEY_SECRET_ID: SECRET_ID,
      CODE_SENDER: 'aws',
      SES_FROM_ADDRESS: 'no-reply@example.com',
      SMS_SENDER_ID: 'FlightBook',
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '',
    };

    log(`cold starts: ${COLD_RUNS} rounds, every function and reference once per round, in a shuffled order`);
    const referenceBundles: Record<string, string> = {
      bare: bundles.bare,
      [FLOOR]: bundles.ddbFloor,
      'ddb-only + signing key from Secrets Manager': bundles.ddbSecret,
    };
    /** A row's bundle: its route's, for the variants too ("send-otp (SMS)", "search (round trip)"). */
    const bundleOf = (id: string) =>
      referenceBundles[id] ?? bundles.routes.get(id.replace(/ \(.*\)$/, '')) ?? '';
    const eventOf = (id: string, round: number) =>
      referenceBundles[id] ? bareEvent : (eventFiles.get(id)?.[round] ?? '');
    const coldIds = [
      ...Object.keys(referenceBundles),
      ...routes
        .map((r) => r.id)
        .flatMap((id) => [id, ...[...eventFiles.keys()].filter((k) => k.startsWith(`${id} (`))]),
    ];
    const cold = new Map<string, ColdRun[]>(coldIds.map((id) => [id, []]));
    for (let round = 0; round < COLD_RUNS; round++)
      for (const id of shuffled(coldIds, round + 1))
        cold.get(id)?.push(await coldStartOnce(childEnv, bundleOf(id), eventOf(id, round)));
    // A cold start that answered an error measured the wrong path: that is a broken benchmark, not a figure.
    for (const [id, runs] of cold) {
      const bad = runs.filter((r) => r.status >= 400);
      if (!referenceBundles[id] && bad.length)
        throw new Error(`${id} answered ${bad.map((r) => r.status).join(',')} in ${bad.length} cold runs`);
    }
    log(`stand-in answered ${JSON.stringify(standIn.calls)}`);

    const instructions = new Map<string, number>();
    const hasValgrind = await run('valgrind', ['--version']).then(
      () => process.env.BENCH_CACHEGRIND !== '0',
      () => false,
    );
    if (hasValgrind) {
      log('instructions of one cold run per function (cachegrind)');
      for (const id of coldIds) {
        const { stderr } = await run(
          'valgrind',
          [
            '--tool=cachegrind',
            '--cache-sim=no',
            '--cachegrind-out-file=/dev/null',
            process.execPath,
            join(root, 'test/bench/harness.mjs'),
            bundleOf(id),
            eventOf(id, COLD_RUNS),
          ],
          { env: childEnv, maxBuffer: 1 << 24 },
        );
        instructions.set(
          id,
          Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1]?.replaceAll(',', '') ?? Number.NaN),
        );
      }
    }

    const processMedian = (id: string) => median((cold.get(id) ?? []).map((r) => r.processMs));
    const floorProcess = processMedian(FLOOR);
    const floorInstr = instructions.get(FLOOR) ?? Number.NaN;
    const coldMisses: string[] = [];
    return {
      title: 'P1 cold start',
      lines: [
        `Each function bundled as the stack bundles it, started in a fresh Node ${process.versions.node} process: spawn → import → first invocation → answer. The init path is the deployed one: the signing key is read through the Secrets Manager client and send-otp sends through the SES or SNS client, both answered by a local stand-in in their wire formats; DynamoDB is DynamoDB Local; access logging is on at info. ${COLD_RUNS} rounds, each running every bundle once in a shuffled order. The floor is a bundle holding only the DynamoDB client the design requires, making one GetItem (process median ${round(floorProcess, 1)} ms${hasValgrind ? `, ${round(floorInstr / 1e6, 1)} M instructions` : ''}). Goal: process median ≤ ${COLD_GOAL}× the floor${hasValgrind ? ` and instructions ≤ ${INSTR_GOAL}× (cachegrind, one run)` : ''}. "import" and "first invocation" are timed inside the process; each DynamoDB Local call takes about 5 ms, so a route making more calls than the floor pays that too.`,
        '',
        table(
          [
            'function',
            'process median ms',
            'process p90 ms',
            '× floor',
            'import ms',
            'first invocation ms',
            ...(hasValgrind ? ['instructions (M)', 'instr. × floor'] : []),
            'goal',
          ],
          coldIds.map((id) => {
            const runs = cold.get(id) ?? [];
            const timeRatio = processMedian(id) / floorProcess;
            const instrRatio = (instructions.get(id) ?? Number.NaN) / floorInstr;
            const met = timeRatio <= COLD_GOAL && (!hasValgrind || instrRatio <= INSTR_GOAL);
            if (!referenceBundles[id] && !met) coldMisses.push(id);
            return [
              id,
              round(processMedian(id), 1),
              round(
                percentile(
                  runs.map((r) => r.processMs),
                  90,
                ),
                1,
              ),
              round(timeRatio, 2),
              round(median(runs.map((r) => r.importMs)), 1),
              round(median(runs.map((r) => r.invokeMs)), 1),
              ...(hasValgrind ? [round((instructions.get(id) ?? 0) / 1e6, 1), round(instrRatio, 2)] : []),
              id === FLOOR ? 'floor' : referenceBundles[id] ? 'reference' : verdict(met),
            ];
          }),
        ),
        '',
        `Bare handler: ${round(processMedian('bare'), 1)} ms per process, of which Node itself is nearly all. ${coldMisses.length ? `Missed: ${coldMisses.join(', ')}.` : 'Every function meets both goals.'}`,
      ],
    };
  } finally {
    await standIn.close();
  }
}
