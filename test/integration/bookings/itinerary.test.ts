import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agencyNameUpdate } from '#shared/agency/agency-counters-item.ts';
import { RESENDS_PER_HOUR } from '#shared/events/itinerary.ts';
import { sesNoticeSender } from '#shared/events/notice-sender.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, type Json, searchOffers } from '#test/helpers/bookings.ts';
import { freezeClock } from '#test/helpers/clock.ts';
import { readNotices } from '#test/helpers/events.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as itinerary } from '#test/helpers/routes/bookings/itinerary.ts';
import { handler as note } from '#test/helpers/routes/bookings/note.ts';
import { handler as resend, resendThrough } from '#test/helpers/routes/bookings/resend.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/**
 * booking/itinerary and booking/resend (docs/API.md §4.3, turn 5): the itinerary as the confirmation
 * e-mail tells it, never the agency's notes, HTML escaped; resent through the notices' sender
 * (notices.jsonl here, SES stubbed at the SDK client below), 5 per booking per hour, recorded as a note.
 */
const ses = mockClient(SESClient);
afterAll(() => ses.restore());
afterEach(() => ses.reset());

let agent: TestSession;
let stranger: TestSession;
let advance: (ms: number) => void;
const AGENCY_NAME = '<b>Acme & "Co"</b>';

const call = (handler: typeof get, session: TestSession, body: Record<string, unknown>) =>
  invoke(handler, { body, headers: session.headers });

async function bookOne(date: string, lastName = "O'Brien") {
  const [offer] = await searchOffers(agent, { departure_date: date });
  const body = bookingBody(offer);
  body.passengers = body.passengers.map((p: Json) => ({ ...p, last_name: lastName }));
  const answer = await book(agent, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

beforeAll(async () => {
  advance = freezeClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const agencyId = `itinerary-${Math.random().toString(36).slice(2, 8)}`;
  agent = await signIn({ agencyId, name: 'Ada Agent' });
  stranger = await signIn({ agencyId: `${agencyId}-other` });
  await testTable.db.send(new UpdateCommand(agencyNameUpdate(testTable.tableName, agencyId, AGENCY_NAME)));
}, 60_000);

describe('fn: booking itinerary', () => {
  it('tells the itinerary as the confirmation e-mail does, with its conditions, never the notes, HTML escaped', async () => {
    const booked = await bookOne('2027-04-01');
    await call(note, agent, { booking_id: booked.booking_id, text: 'SECRET remark <i>' });

    const answer = await call(itinerary, agent, { booking_id: booked.booking_id });

    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { subject, text, html } = answer.body.data;
    expect(subject).toBe(`Your itinerary: ${booked.pnr} (${AGENCY_NAME})`);
    const segment = booked.flight.outbound.segments[0];
    for (const line of [
      `Booking reference (PNR): ${booked.pnr}`,
      `${segment.flight_number} (${segment.carrier_name}) LHR to JFK`,
      'local time (2027-04-01',
      "Ada O'Brien (adult)",
      `Total price: ${booked.total_price.toFixed(2)} ${booked.currency}`,
      'Status: confirmed',
      'Refund before departure:',
      'Change before departure:',
    ])
      expect(text).toContain(line);
    expect(`${text}${html}${subject}`).not.toContain('SECRET');
    expect(html).toContain('Ada O&#39;Brien');
    expect(html).toContain('&#60;b&#62;Acme &#38; &#34;Co&#34;&#60;/b&#62;');
    expect(html).not.toContain('<b>Acme');
  });

  it('shows a hold’s deadline, and answers 404 for another agency’s booking', async () => {
    const [offer] = await searchOffers(agent, { departure_date: '2027-04-02' });
    const held = (await book(agent, { ...bookingBody(offer), hold: true })).body.data;
    const answer = await call(itinerary, agent, { booking_id: held.booking_id });
    const deadline = held.payment_required_by as string;
    expect(answer.body.data.text).toContain(`Pay by: ${deadline.slice(0, 10)} ${deadline.slice(11, 16)} UTC`);
    expect((await call(itinerary, stranger, { booking_id: held.booking_id })).status).toBe(404);
  });
});

describe('fn: booking resend', () => {
  it('e-mails the current itinerary to the contact or to `email`, and records it as a note by the agent', async () => {
    const booked = await bookOne('2027-04-03');
    const sent = await call(resend, agent, { booking_id: booked.booking_id });
    const other = await call(resend, agent, { booking_id: booked.booking_id, email: 'Desk@Example.com' });

    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(other.status).toBe(202);
    expect(other.body.data.notes.map((n: Json) => n.text)).toEqual([
      'Itinerary sent again to traveller@example.com.',
      'Itinerary sent again to desk@example.com.',
    ]);
    expect(other.body.data.notes[0].created_by).toEqual({ id: agent.agent.id, name: 'Ada Agent' });
    const lines = (await readNotices()).filter((line) => line.booking_id === booked.booking_id);
    const shown = (await call(itinerary, agent, { booking_id: booked.booking_id })).body.data;
    expect(lines.map((line) => [line.type, line.to])).toEqual([
      ['booking.itinerary', 'traveller@example.com'],
      ['booking.itinerary', 'desk@example.com'],
    ]);
    expect(lines[0]).toMatchObject({ subject: shown.subject, text: shown.text, pnr: booked.pnr });
    expect(lines[0]?.event_id).toBe(other.body.data.notes[0].id);
  });

  it('sends through SES within the request; a failed send is 503 (a refused address 400 on email) and records nothing', async () => {
    const booked = await bookOne('2027-04-05');
    const through = resendThrough(
      sesNoticeSender(new SESClient({ region: 'eu-west-1' }), { from: 'no-reply@flights.example.com' }),
    );
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    expect((await call(through, agent, { booking_id: booked.booking_id })).status).toBe(202);
    const [sent] = ses.commandCalls(SendEmailCommand);
    expect(sent?.args[0].input).toMatchObject({
      Source: 'no-reply@flights.example.com',
      Destination: { ToAddresses: ['traveller@example.com'] },
      Message: { Subject: { Data: `Your itinerary: ${booked.pnr} (${AGENCY_NAME})` } },
    });

    ses.reset();
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Throttling'), { name: 'Throttling' }));
    const failed = await call(through, agent, { booking_id: booked.booking_id });
    ses.reset();
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('Illegal address'), { name: 'MessageRejected' }));
    const refused = await call(through, agent, {
      booking_id: booked.booking_id,
      email: 'nobody@example.com',
    });

    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: Json) => d.path)).toEqual(['email']);
    const read = await call(get, agent, { booking_id: booked.booking_id });
    expect(read.body.data.notes).toHaveLength(1);
  });

  it(`sends ${RESENDS_PER_HOUR} per booking per hour: the next is 429 with Retry-After, until the hour has passed (last: it moves the clock on)`, async () => {
    const booked = await bookOne('2027-04-04');
    for (let i = 0; i < RESENDS_PER_HOUR; i++) {
      expect((await call(resend, agent, { booking_id: booked.booking_id })).status).toBe(202);
      advance(60_000);
    }
    const refused = await call(resend, agent, { booking_id: booked.booking_id });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'] ?? refused.headers['Retry-After'])).toBe(3600 - 5 * 60);
    const read = await call(get, agent, { booking_id: booked.booking_id });
    expect(read.body.data.notes).toHaveLength(RESENDS_PER_HOUR);
    expect((await call(resend, stranger, { booking_id: booked.booking_id })).status).toBe(404);
    // An hour after the first: signed in again (sessions last an hour), the agency may send once more.
    advance(3600_000 - 5 * 60_000 + 1000);
    const later = await signIn({ agencyId: agent.agent.agency_id });
    expect((await call(resend, later, { booking_id: booked.booking_id })).status).toBe(202);
  });
});
