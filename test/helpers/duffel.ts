import { afterAll, afterEach, beforeEach } from 'vitest';
import { expireLateHolds } from '#shared/bookings/holds.ts';
import { readSupplierConfig } from '#shared/supply/supplier-config.ts';
import { createHandler as createCancel } from '../../functions/bookings/cancel.ts';
import { createHandler as createChange } from '../../functions/bookings/change.ts';
import { createHandler as createChangeSearch } from '../../functions/bookings/change-search.ts';
import { createHandler as createConfirm } from '../../functions/bookings/confirm.ts';
import { createHandler as createBooking } from '../../functions/bookings/create.ts';
import { createHandler as createGet } from '../../functions/bookings/get.ts';
import { createHandler as createRefundQuote } from '../../functions/bookings/refund-quote.ts';
import { createHandler as createSearch } from '../../functions/flights/search.ts';
import { createHandler as createServices } from '../../functions/flights/services.ts';
import {
  type DuffelStandIn,
  type StandInOptions,
  startDuffelStandIn,
} from '../../infra/local/duffel-stand-in.ts';
import { type Answer, invoke } from './api.ts';
import { freezeClock } from './clock.ts';
import { signIn, type TestSession } from './session.ts';
import { withSupplier } from './supplier-context.ts';
import { testContext } from './test-context.ts';

/** The token the Duffel tests use: it must never appear in a log line or an answer. */
export const DUFFEL_TEST_TOKEN = 'duffel_test_Zx81QmK2vT7pLw0RsN4yHc';

/**
 * The handlers in duffel mode, against a stand-in on the tests' clock, with short timeouts so that a
 * hung call fails quickly (`settings` overrides them). Every answer they give is kept in `answers` (checked for the token).
 */
export async function duffelMode(options: StandInOptions = {}, settings: Record<string, string> = {}) {
  const standIn: DuffelStandIn = await startDuffelStandIn({ now: () => testContext.clock.now(), ...options });
  afterAll(() => standIn.close());
  const ctx = await withSupplier(
    testContext,
    readSupplierConfig({
      SUPPLIER: 'duffel',
      DUFFEL_ACCESS_TOKEN: DUFFEL_TEST_TOKEN,
      DUFFEL_API_URL: standIn.url,
      DUFFEL_TIMEOUT_MS: '400',
      DUFFEL_ORDER_TIMEOUT_MS: '600',
      ...settings,
    }),
  );
  const answers: Answer[] = [];
  const call =
    (handler: ReturnType<typeof createSearch>, path: string) =>
    async (session: TestSession, body: unknown, headers: Record<string, string> = {}) => {
      const answer = await invoke(handler, { path, headers: { ...session.headers, ...headers }, body });
      answers.push(answer);
      return answer;
    };
  return {
    standIn,
    ctx,
    answers,
    search: call(createSearch(ctx), '/api/flights/search'),
    book: call(createBooking(ctx), '/api/flights/booking/create'),
    get: call(createGet(ctx), '/api/flights/booking/get'),
    cancel: call(createCancel(ctx), '/api/flights/booking/cancel'),
    confirm: call(createConfirm(ctx), '/api/flights/booking/confirm'),
    refundQuote: call(createRefundQuote(ctx), '/api/flights/booking/refund-quote'),
    services: call(createServices(ctx), '/api/flights/offer/services'),
    changeSearch: call(createChangeSearch(ctx), '/api/flights/booking/change-search'),
    change: call(createChange(ctx), '/api/flights/booking/change'),
    sweep: () => ctx.orderFlow.sweepPending(ctx),
    /** The sweep's part that settles supplier calls left unanswered (cancellations, payments). */
    settleCalls: () => ctx.orderFlow.settleLeftCalls(ctx),
    /** The sweep's other half: late holds become EXPIRED. */
    expireHolds: () => expireLateHolds(ctx),
  };
}

/**
 * Each test of a file a new agency (`prefix`-…) signed in, on a clock an hour later than the last test's
 * (Duffel's rate-limit windows move on; `day` counts the tests; `advance` moves the clock on), and the
 * stand-in's faults and reshapes cleared after it.
 */
export function freshEachTest(standIn: DuffelStandIn, prefix: string) {
  const state = { session: undefined as unknown as TestSession, day: 0, advance: (_ms: number) => {} };
  beforeEach(async () => {
    state.day += 1;
    state.advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0) + state.day * 3_600_000);
    state.session = await signIn({ agencyId: `${prefix}-${Math.random().toString(36).slice(2, 8)}` });
  });
  afterEach(() => standIn.clearFaults());
  return state;
}
