/**
 * P6 contention: 100 bookings at once on one flight against the same concurrency over 100 flight-dates,
 * then 100 at once for 8 first-class seats (oversell must be 0).
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inventoryKey, soldAttribute } from '../../shared/flights/inventory-item.ts';
import type { ScheduledFlight } from '../../shared/flights/schedule.ts';
import { median, percentile, ratio, round, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const CONTENTION_GOAL = 3;

/** The answers other than 201, by error code: "SOLD_OUT 92, …", or "–". */
function summarize(results: { status: number; code?: string }[]) {
  const counts = new Map<string, number>();
  for (const r of results)
    if (r.status !== 201)
      counts.set(r.code ?? String(r.status), (counts.get(r.code ?? String(r.status)) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${code} ${n}`).join(', ') || '–';
}

export async function contention(bench: Bench): Promise<Section> {
  const { context, newAgent, bearer, invoke, pathOf, offerFor, flightAt } = bench;
  bench.log('contention: 100 parallel bookings on one flight');
  const contentionAuths = await Promise.all(
    Array.from({ length: 20 }, async () => bearer(await newAgent('contend'))),
  );
  async function timedBooking(body: unknown, auth: Record<string, string>) {
    const started = performance.now();
    const answer = await invoke('booking-create', pathOf('booking-create'), body, auth);
    return {
      ms: performance.now() - started,
      status: answer.status,
      code: answer.body.error?.code as string | undefined,
    };
  }
  const soldOn = async (flight: ScheduledFlight, travelClass: 'ECONOMY' | 'FIRST') =>
    Number(
      (
        await context.db.send(
          new GetCommand({
            TableName: 'bench',
            Key: inventoryKey(flight.flightNumber, flight.date),
            ConsistentRead: true,
          }),
        )
      ).Item?.[soldAttribute(travelClass)] ?? 0,
    );
  /** 100 bookings at once, the `i`-th booking `offer(i)`, spread over the 20 agents. */
  const hundredAtOnce = (offer: (i: number) => unknown) =>
    Promise.all(Array.from({ length: 100 }, (_, i) => timedBooking(offer(i), contentionAuths[i % 20] ?? {})));
  // Warm-up, untimed, on flight-dates no run below uses: DynamoDB Local's JVM answers its first few
  // hundred transactions 2-4x slower, so without it P6's figures depend on what ran before it (the
  // whole run, or nothing with --only). Five bursts of 100 at once, then 60 one at a time.
  for (let burst = 0; burst < 5; burst++)
    await hundredAtOnce((i) => offerFor(flightAt(70 + 8 * burst + Math.floor(i / 14), i), 5, 'ECONOMY'));
  for (let i = 0; i < 60; i++)
    await timedBooking(offerFor(flightAt(110, i), 5, 'ECONOMY'), contentionAuths[i % 20] ?? {});
  // Uncontended: the same concurrency, 100 bookings at once, but each on its own flight-date.
  const uncontendedRuns = await hundredAtOnce((i) =>
    offerFor(flightAt(40 + Math.floor(i / 14), i), 5, 'ECONOMY'),
  );
  const uncontended = uncontendedRuns.map((r) => r.ms);
  // For scale: one at a time.
  const sequential: number[] = [];
  for (let i = 0; i < 30; i++)
    sequential.push(
      (await timedBooking(offerFor(flightAt(55, i), 5, 'ECONOMY'), contentionAuths[i % 20] ?? {})).ms,
    );
  // Contended: 100 at once on one flight, all quoted in the last economy bucket (room for all 100).
  const hot = flightAt(60, 0);
  const contended = await hundredAtOnce(() => offerFor(hot, 5, 'ECONOMY'));
  const hotSold = await soldOn(hot, 'ECONOMY');
  const hotBooked = contended.filter((r) => r.status === 201).length;
  // Oversell: 100 at once for the 8 first-class seats of another flight.
  const small8 = flightAt(61, 0);
  const firstRace = await hundredAtOnce(() => offerFor(small8, 3, 'FIRST'));
  const firstSold = await soldOn(small8, 'FIRST');
  const firstBooked = firstRace.filter((r) => r.status === 201).length;
  const oversold =
    Math.max(0, firstSold - (small8.leg.aircraft.seats.FIRST ?? 0)) +
    Math.abs(firstSold - firstBooked) +
    Math.abs(hotSold - hotBooked);
  const contendedP99 = percentile(
    contended.map((r) => r.ms),
    99,
  );
  const uncontendedP99 = percentile(uncontended, 99);
  return {
    title: 'P6 contention',
    lines: [
      `100 bookings at once on one flight through the create handler (each its own offer, quoted in the last economy bucket so all can succeed), against the same 100-way concurrency spread over 100 flight-dates (uncontended). Then 100 at once for the 8 first-class seats of another flight. One process, DynamoDB Local, warmed first by 560 untimed bookings on other flights. Goal: p99 ≤ ${CONTENTION_GOAL}× uncontended, oversell 0.`,
      '',
      table(
        ['run', 'p50 ms', 'p99 ms', 'booked', 'sold in inventory', 'other answers'],
        [
          [
            'one at a time (for scale)',
            round(median(sequential), 1),
            round(percentile(sequential, 99), 1),
            sequential.length,
            '',
            '',
          ],
          [
            '100 parallel, 100 flights (uncontended)',
            round(median(uncontended), 1),
            round(uncontendedP99, 1),
            uncontendedRuns.filter((r) => r.status === 201).length,
            '',
            summarize(uncontendedRuns),
          ],
          [
            '100 parallel, economy',
            round(median(contended.map((r) => r.ms)), 1),
            round(contendedP99, 1),
            hotBooked,
            hotSold,
            summarize(contended),
          ],
          [
            '100 parallel, 8 first-class seats',
            round(median(firstRace.map((r) => r.ms)), 1),
            round(
              percentile(
                firstRace.map((r) => r.ms),
                99,
              ),
              1,
            ),
            firstBooked,
            firstSold,
            summarize(firstRace),
          ],
        ],
      ),
      '',
      `p99 ratio ${ratio(contendedP99, uncontendedP99)}× (${verdict(contendedP99 / uncontendedP99 <= CONTENTION_GOAL)}); oversell / inventory mismatch: **${oversold}** (${verdict(oversold === 0)}).`,
    ],
  };
}
