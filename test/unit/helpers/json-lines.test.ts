import { describe, expect, it } from 'vitest';
import { completeJsonLines } from '#test/helpers/json-lines.ts';

describe('fn: completeJsonLines', () => {
  it('leaves a last line still being appended for the next read, and parses the complete ones', () => {
    // Prepare: the outbox as a reader saw it while a second send-otp was writing its line.
    const text = '{"to":"a@example.com","code":"123456"}\n{"to":"b@exam';

    // Act
    const lines = completeJsonLines<{ to: string }>(text);

    // Assess
    expect(lines).toEqual([{ to: 'a@example.com', code: '123456' }]);
    expect(completeJsonLines(`${text}ple.com"}\n`)).toHaveLength(2);
    expect(completeJsonLines('')).toEqual([]);
  });
});
