import { beforeAll, describe, expect, it } from 'vitest';
import { NOTES_MAX } from '#shared/bookings/notes.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, type Json, searchOffers } from '#test/helpers/bookings.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { handler as note } from '#test/helpers/routes/bookings/note.ts';
import { signIn, type TestSession } from '#test/helpers/session.ts';

/** booking/note (docs/API.md §4.3, turn 5): the agency's notes on a booking, oldest first, at most 50. */
let admin: TestSession;
let colleague: TestSession;
let stranger: TestSession;
let booking: Json;

const addNote = (session: TestSession, body: Record<string, unknown>) =>
  invoke(note, { path: '/api/flights/booking/note', body, headers: session.headers });

beforeAll(async () => {
  const agencyId = `notes-${Math.random().toString(36).slice(2, 8)}`;
  admin = await signIn({ agencyId, role: 'ADMIN' });
  colleague = await signIn({ agencyId, role: 'AGENT' });
  stranger = await signIn({ agencyId: `${agencyId}-other` });
  const [offer] = await searchOffers(admin, { departure_date: '2027-03-03' });
  booking = (await book(admin, bookingBody(offer))).body.data;
}, 60_000);

describe('fn: booking note', () => {
  it('appends a note by any agent of the agency, oldest first, without a state change', async () => {
    const first = await addNote(colleague, {
      booking_id: booking.booking_id,
      text: '  Aisle seat, please. ',
    });
    const second = await addNote(admin, { booking_id: booking.booking_id, text: 'Cafe\u0301 voucher sent' });

    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(second.status).toBe(201);
    const notes: Json[] = second.body.data.notes;
    expect(notes.map((n) => n.text)).toEqual(['Aisle seat, please.', 'Café voucher sent']);
    expect(notes[0]).toEqual({
      id: expect.stringMatching(/^note_[0-9A-HJKMNP-TV-Z]{26}$/),
      text: 'Aisle seat, please.',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      created_by: { id: colleague.agent.id, name: colleague.agent.name },
    });
    expect(second.body.data).toMatchObject({ status: 'CONFIRMED', version: booking.version });
    const read = await invoke(get, { body: { booking_id: booking.booking_id }, headers: admin.headers });
    expect(read.body.data.notes).toEqual(notes);
  });

  it('answers 404 for another agency’s booking, exactly as for none, and changes nothing', async () => {
    const theirs = await addNote(stranger, { booking_id: booking.booking_id, text: 'mine now' });
    const none = await addNote(admin, { booking_id: 'bkg_01KAQZ3V5D8YB2C6N0PQRSTVWX', text: 'x' });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual({ ...none.body.error, request_id: theirs.body.error.request_id });
    const read = await invoke(get, { body: { booking_id: booking.booking_id }, headers: admin.headers });
    expect(JSON.stringify(read.body.data.notes)).not.toContain('mine now');
  });

  it('counts 1-1000 characters after NFC, and refuses an empty one on text', async () => {
    const longest = `${'e\u0301'.repeat(500)}${'x'.repeat(500)}`;
    expect((await addNote(admin, { booking_id: booking.booking_id, text: longest })).status).toBe(201);
    for (const text of ['', '   ', 'x'.repeat(1001), 42]) {
      const answer = await addNote(admin, { booking_id: booking.booking_id, text });
      expect(answer.status, JSON.stringify(text)).toBe(400);
      expect(answer.body.error.details.map((d: Json) => d.path)).toEqual(['text']);
    }
  });

  it('keeps every one of several notes sent at once, and never more than the cap', async () => {
    const [offer] = await searchOffers(admin, { departure_date: '2027-03-05' });
    const busy = (await book(admin, bookingBody(offer))).body.data;
    const texts = Array.from({ length: 8 }, (_, i) => `at once ${i}`);
    const answers = await Promise.all(
      texts.map((text) => addNote(admin, { booking_id: busy.booking_id, text })),
    );
    expect(answers.map((a) => a.status)).toEqual(texts.map(() => 201));
    for (let i = texts.length; i < NOTES_MAX - 2; i++)
      expect((await addNote(admin, { booking_id: busy.booking_id, text: `note ${i}` })).status).toBe(201);
    const last = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        addNote(colleague, { booking_id: busy.booking_id, text: `last ${i}` }),
      ),
    );

    expect(last.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409]);
    const read = await invoke(get, { body: { booking_id: busy.booking_id }, headers: admin.headers });
    expect(read.body.data.notes).toHaveLength(NOTES_MAX);
    expect(
      read.body.data.notes
        .slice(0, 8)
        .map((n: Json) => n.text)
        .sort(),
    ).toEqual(texts);
  }, 60_000);

  it(`holds at most ${NOTES_MAX} notes: the next is 409 LIMIT_REACHED`, async () => {
    const [offer] = await searchOffers(admin, { departure_date: '2027-03-04' });
    const full = (await book(admin, bookingBody(offer))).body.data;
    for (let i = 1; i <= NOTES_MAX; i++) {
      const answer = await addNote(admin, { booking_id: full.booking_id, text: `note ${i}` });
      expect(answer.status).toBe(201);
    }
    const refused = await addNote(admin, { booking_id: full.booking_id, text: 'one too many' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('LIMIT_REACHED');
    const read = await invoke(get, { body: { booking_id: full.booking_id }, headers: admin.headers });
    expect(read.body.data.notes).toHaveLength(NOTES_MAX);
    expect(read.body.data.notes.at(-1).text).toBe(`note ${NOTES_MAX}`);
  }, 60_000);
});
