import { beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '#test/helpers/api.ts';
import { assertMatchesContract } from '#test/helpers/contract.ts';
import { post } from '#test/helpers/local-server.ts';
import { readmeBlockRun, runReadmeBlock } from '#test/helpers/readme.ts';
import { ownAdmin, sharedServer } from '#test/helpers/shared-server.ts';

// The shared server: the walkthrough signs in an agent of an agency of its own in place of the demo
// agent, whose codes are throttled per identifier (demo.test.ts signs it in there).
const server = sharedServer();
const AGENCY = 'readme-walkthrough';
let agent: string;

beforeAll(async () => {
  ({ identifier: agent } = await ownAdmin(server, AGENCY));
});

describe('e2e: README walkthrough', () => {
  it('signs in with a code from the outbox, searches flights, and is refused after logout', async () => {
    const stdout = await runReadmeBlock('walkthrough', server, {}, agent);

    const lines = stdout.trim().split('\n');
    const answers = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    const offers = lines.filter((line) => !line.startsWith('{'));
    expect(answers).toHaveLength(7);
    expect(offers).toHaveLength(20);
    for (const offer of offers) {
      expect(offer).toMatch(
        /^\d+(\.\d{1,2})? EUR {2}[A-Z0-9]{2}\d+ LHR-[A-Z]{3} \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z/,
      );
    }
    expect(offers.filter((offer) => !offer.includes(' + ')).length).toBe(14);
    expect(offers.some((offer) => /\+ [A-Z0-9]{2}\d+ [A-Z]{3}-JFK/.test(offer))).toBe(true);
    const [sent, verified, booked, found, cancelled, loggedOut, refused] = answers;
    const calls: [string, number][] = [
      ['/api/auth/send-otp', 202],
      ['/api/auth/verify-otp', 200],
      ['/api/flights/booking/create', 201],
      ['/api/flights/booking/get', 200],
      ['/api/flights/booking/cancel', 200],
      ['/api/auth/logout', 200],
      ['/api/auth/logout', 401],
    ];
    calls.forEach(([path, status], i) => {
      assertMatchesContract(path, status, answers[i]);
    });
    expect(booked.data).toMatchObject({ status: 'CONFIRMED', pnr: expect.stringMatching(/^[A-Z]{6}$/) });
    expect(booked.data.flight.outbound.segments[0].origin).toBe('LHR');
    expect(found.data).toEqual(booked.data);
    expect(cancelled.data).toEqual({
      ...booked.data,
      status: 'CANCELLED',
      cancelled_at: expect.any(String),
      cancelled_by: booked.data.created_by,
      refund: { amount: refundUnderConditions(booked.data), currency: booked.data.currency },
      refund_to: 'balance',
      airline_credits: [],
      updated_at: cancelled.data.cancelled_at,
      version: 2,
    });
    expect(sent).toEqual({ success: true, data: { expires_in: 300, resend_after: 30 } });
    expect(verified.success).toBe(true);
    expect(verified.data.agent).toMatchObject({ identifier: agent, agency_id: AGENCY });
    expect(loggedOut).toEqual({ success: true, data: {} });
    expect(refused.error.code).toBe('UNAUTHORIZED');
  });

  it('stops at the first error and shows it: run again at once, its code request is refused (429)', async () => {
    // The test above asked for the agent's code moments ago: one code per identifier per 30 s.
    const { code, stdout, stderr } = await readmeBlockRun('walkthrough', server, {}, agent);

    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^POST \/api\/auth\/send-otp answered 429: \{"success":false,"error":\{"code":"RATE_LIMITED"/,
    );
    expect(stderr).not.toMatch(/TypeError|SyntaxError|node:/);
  });

  it('prints a banner with the URL, the demo agent, where codes appear, the hold length and the sweep', () => {
    expect(server.output()).toContain(`listening on ${server.url}`);
    expect(server.output()).toContain('agent@example.com (agency demo-agency)');
    expect(server.output()).toContain(`${server.dataDir}/outbox.jsonl`);
    expect(server.output()).toContain(
      'holds:      last 24 hours, ending 48 hours before departure at the latest',
    );
    expect(server.output()).toContain('sweep:      every 15 s: late holds expire, PENDING bookings settle');
  });
});

describe('e2e: contract errors over HTTP', () => {
  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const answer = await post(`${server.url}/api/auth/send-otp`, '{"identifier": ');

    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_JSON');
  });

  it('answers a form body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const answer = await post(`${server.url}/api/auth/send-otp`, 'identifier=a', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });

    expect(answer.status).toBe(415);
    expect(answer.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a 70 KiB body with 413 PAYLOAD_TOO_LARGE', async () => {
    const answer = await post(`${server.url}/api/auth/send-otp`, {
      identifier: 'x'.repeat(70 * 1024),
      type: 'EMAIL',
    });

    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown path with 404 NOT_FOUND in the envelope', async () => {
    const answer = await post(`${server.url}/api/flights/teleport`, {});

    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({
      success: false,
      error: {
        code: 'NOT_FOUND',
        message: expect.any(String),
        request_id: answer.headers.get('x-request-id'),
      },
    });
  });

  it('answers a GET with 405 METHOD_NOT_ALLOWED and Allow: POST', async () => {
    const response = await fetch(`${server.url}/api/auth/send-otp`);
    const body = (await response.json()) as Answer['body'];

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('gives every answer a request id matching the envelope', async () => {
    const answer = await post(`${server.url}/api/auth/verify-otp`, { identifier: 'agent@example.com' });

    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.error.request_id).toBe(answer.headers.get('x-request-id'));
  });

  it('keeps codes and tokens out of the log lines (the outbox echo aside)', async () => {
    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));

    expect(logLines.length).toBeGreaterThan(5);
    for (const line of logLines) {
      expect(line).not.toMatch(/\b\d{6}\b/);
      expect(line).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
      expect(line).not.toContain(agent);
      expect(line).not.toContain('agent@example.com');
      expect(line).not.toContain('flight-booking"');
    }
  });
});

/** What the booking's fare conditions give back: the price less the penalty, or 0 (docs/flights.md). */
function refundUnderConditions(booking: {
  total_price: number;
  flight: {
    conditions: { refund_before_departure: { allowed: boolean; penalty: { amount: number } | null } };
  };
}): number {
  const refund = booking.flight.conditions.refund_before_departure;
  if (!refund.allowed) return 0;
  const penalty = refund.penalty?.amount ?? 0;
  return Math.max(0, Math.round(booking.total_price * 100 - penalty * 100) / 100);
}
