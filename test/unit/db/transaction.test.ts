import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TRY_AGAIN } from '#shared/db/retry.ts';
import { slotted, transact, unslotted } from '#shared/db/transaction.ts';

/** DynamoDB's answer to a cancelled transaction, one code per item. */
const cancelledWith = (...codes: string[]) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A client whose sends answer `outcomes` in turn (an error is thrown), recording what was sent. */
function fakeDb(...outcomes: (Error | undefined)[]) {
  const sent: unknown[][] = [];
  return {
    sent,
    send: async (command: TransactWriteCommand) => {
      sent.push(command.input.TransactItems ?? []);
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
      return {};
    },
  };
}

const item = (name: string) => ({
  ConditionCheck: { TableName: 't', Key: { pk: name }, ConditionExpression: 'x' },
});

describe('fn: transact', () => {
  it('returns what a written transaction answers, after one send', async () => {
    const db = fakeDb();

    await expect(transact(db, () => unslotted([item('a')]), { written: () => 'done' })).resolves.toBe('done');
    expect(db.sent).toHaveLength(1);
  });

  it('builds the transaction again for each try its caller asks for, by slot', async () => {
    const db = fakeDb(cancelledWith('None', 'ConditionalCheckFailed'));
    const built: number[] = [];

    const answer = await transact(
      db,
      (tryNumber) => {
        built.push(tryNumber);
        return slotted<'seats' | 'pnr'>([
          ['seats', item('seats')],
          ['pnr', item(`pnr-${tryNumber}`)],
        ]);
      },
      {
        written: () => 'booked',
        cancelled: (reasons) => (reasons.conditionFailed('pnr') ? TRY_AGAIN : 'lost'),
      },
    );

    expect(answer).toBe('booked');
    expect(built).toEqual([1, 2]);
    expect(db.sent[1]).toEqual([item('seats'), item('pnr-2')]);
  });

  it('answers what the caller reads again after a lost write', async () => {
    const db = fakeDb(cancelledWith('ConditionalCheckFailed'));

    const answer = await transact(db, () => unslotted([item('a')]), {
      written: () => 'mine',
      cancelled: async (reasons) => (reasons.any('ConditionalCheckFailed') ? 'theirs, as stored' : TRY_AGAIN),
    });

    expect(answer).toBe('theirs, as stored');
    expect(db.sent).toHaveLength(1);
  });

  it('throws a cancellation when its caller says nothing of it, and any other error always', async () => {
    const cancelled = cancelledWith('TransactionConflict');
    const other = new Error('network down');

    await expect(
      transact(fakeDb(cancelled), () => unslotted([item('a')]), { written: () => 1 }),
    ).rejects.toBe(cancelled);
    await expect(
      transact(fakeDb(other), () => unslotted([item('a')]), { written: () => 1, cancelled: () => TRY_AGAIN }),
    ).rejects.toBe(other);
  });

  it('returns 503 when every try is asked for again', async () => {
    const conflict = () => cancelledWith('TransactionConflict');
    const db = fakeDb(conflict(), conflict());

    await expect(
      transact(db, () => unslotted([item('a')]), {
        written: () => 1,
        cancelled: () => TRY_AGAIN,
        policy: { tries: 2, exhausted: () => new Error('503') },
      }),
    ).rejects.toThrow('503');
    expect(db.sent).toHaveLength(2);
  });
});
