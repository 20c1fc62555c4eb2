import { afterEach, describe, expect, it } from 'vitest';
import { withInvocationFields } from '#shared/invocation.ts';
import { createLogger } from '#shared/log.ts';
import { captureLogLines } from '#test/helpers/log-capture.ts';

const log = createLogger('info');
let release = () => {};
afterEach(() => release());

describe('invocation fields', () => {
  it('keeps each invocation’s request id on its own lines when invocations overlap (the dev server)', async () => {
    const lines: string[] = [];
    release = captureLogLines((line) => lines.push(line));
    let resume = () => {};
    const paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const handle = withInvocationFields(async (event: { wait: boolean }) => {
      if (event.wait) await paused;
      log.info('done');
    });

    const slow = handle({ wait: true }, { awsRequestId: 'slow' });
    await handle({ wait: false }, { awsRequestId: 'fast' });
    resume();
    await slow;
    await handle({ wait: false });

    const fields = lines.map((line) => JSON.parse(line));
    expect(fields.map((line) => [line.request_id, line.cold_start])).toEqual([
      ['fast', false],
      ['slow', true],
      [expect.stringMatching(/^[0-9a-f-]{36}$/), false],
    ]);
  });
});
