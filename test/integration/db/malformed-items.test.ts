import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { bookingKey } from '#shared/bookings/entity/booking-item.ts';
import { testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { book, bookingBody, type Json, searchOffers, startBookingTest } from '#test/helpers/bookings.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { handler as cancel } from '#test/helpers/routes/bookings/cancel.ts';
import { handler as get } from '#test/helpers/routes/bookings/get.ts';
import { testContext as context } from '#test/helpers/test-context.ts';

/**
 * What a read answers is parsed with the item's own schema, never cast (shared/db/stored-item.ts): an
 * item that is not what its module writes (edited by hand, a bad migration) is a fault — 500 in the
 * envelope, nothing changed, and a log line that names the item kind and the fields, never the values.
 */
describe('a stored item that is not what its module writes', () => {
  it('answers 500 for a booking with a bad field, changes nothing, and logs the field but not its value', async () => {
    const { session, date } = await startBookingTest();
    const offers = await searchOffers(session, { departure_date: date });
    const booked: Json = (await book(session, bookingBody(offers[0]))).body.data;
    const key = bookingKey(booked.booking_id);
    const stored =
      (await context.db.send(new GetCommand({ TableName: testTable.tableName, Key: key }))).Item ?? {};
    const tampered = { ...stored, total_price: 'SECRET-VALUE-1', status: 'BOOKED-BY-HAND' };
    await context.db.send(new PutCommand({ TableName: testTable.tableName, Item: tampered }));
    const linesBefore = capturedLogLines.length;

    const read = await invoke(get, { headers: session.headers, body: { booking_id: booked.booking_id } });
    const cancelled = await invoke(cancel, {
      headers: session.headers,
      body: { booking_id: booked.booking_id },
    });

    for (const answer of [read, cancelled]) {
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
      expect(JSON.stringify(answer.body)).not.toMatch(/SECRET-VALUE|BOOKED-BY-HAND|malformed|BOOKING#/);
    }
    const after = (await context.db.send(new GetCommand({ TableName: testTable.tableName, Key: key }))).Item;
    expect(after).toEqual(tampered);
    const lines = capturedLogLines.slice(linesBefore).join('\n');
    expect(lines).toMatch(/malformed booking item: [a-z_, .]*(status|total_price)/);
    expect(lines).not.toMatch(/SECRET-VALUE|BOOKED-BY-HAND/);
  });
});
