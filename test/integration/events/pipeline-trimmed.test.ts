import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { book, bookingBody, freshTravelDate, searchOffers } from '#test/helpers/bookings.ts';
import { readNotices, startTestPipeline } from '#test/helpers/events.ts';
import { signIn } from '#test/helpers/session.ts';
import { until } from '#test/helpers/webhook-receiver.ts';

/**
 * DynamoDB Local sometimes refuses a shard iterator as trimmed while other tables are written at the
 * same moment (seen when test files ran side by side), and then refuses that iterator for good: the
 * pipeline must ask for a new one rather than retry the refused one forever.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

describe('event pipeline, an iterator refused', () => {
  it('goes on with a new iterator after a TrimmedDataAccessException, losing no record', async () => {
    const admin = await signIn({
      agencyId: `trimmed-${Math.random().toString(36).slice(2, 8)}`,
      role: 'ADMIN',
    });
    const date = freshTravelDate();
    // The SDK's send is overloaded; this wrapper passes every call on as it came.
    const send = DynamoDBStreamsClient.prototype.send as unknown as (
      this: DynamoDBStreamsClient,
      command: unknown,
    ) => Promise<unknown>;
    const refused = new Set<string>();
    let refusals = 0;
    // The first iterator handed back after records were read is refused, every time it is used.
    vi.spyOn(DynamoDBStreamsClient.prototype, 'send').mockImplementation(async function (
      this: DynamoDBStreamsClient,
      command: unknown,
    ) {
      const iterator = command instanceof GetRecordsCommand ? command.input.ShardIterator : undefined;
      if (iterator && refused.has(iterator)) {
        refusals += 1;
        throw Object.assign(new Error('trimmed'), { name: 'TrimmedDataAccessException' });
      }
      const output = await send.call(this, command);
      const page = output as { Records?: unknown[]; NextShardIterator?: string };
      if (iterator && page.Records?.length && page.NextShardIterator && refusals === 0 && refused.size === 0)
        refused.add(page.NextShardIterator);
      return output;
    });

    const pipeline = await startTestPipeline();
    try {
      const bookOne = async (index: number) => {
        const offers = await searchOffers(admin, { departure_date: date });
        const answer = await book(admin, bookingBody(offers[index]));
        expect(answer.status).toBe(201);
        return answer.body.data.booking_id as string;
      };
      const first = await bookOne(0);
      await until('the first booking noticed', async () =>
        (await readNotices()).some((n) => n.booking_id === first),
      );
      const second = await bookOne(1);
      await until('the second booking noticed', async () =>
        (await readNotices()).some((n) => n.booking_id === second),
      );
      expect(refusals).toBeGreaterThan(0);
      expect((await readNotices()).filter((n) => n.booking_id === first)).toHaveLength(1);
    } finally {
      await pipeline.stop();
    }
  });
});
