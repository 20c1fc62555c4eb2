import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { captureLogLines } from '#test/helpers/log-capture.ts';

let release = () => {};
afterEach(() => release());
// The files after this one in its worker load the modules anew, not the copies these tests spent.
afterAll(() => {
  vi.resetModules();
});

/**
 * shared/invocation.ts and the logger as a process that has not yet been invoked has them. The
 * `cold_start` flag is the process's: the unit files share their processes (vitest.config.ts), so any
 * file that ran an invocation earlier in this worker has spent it. Each test evaluates the modules
 * anew instead of counting on being first.
 */
async function coldProcess() {
  vi.resetModules();
  const { withInvocationFields } = await import('#shared/invocation.ts');
  const { createLogger } = await import('#shared/log.ts');
  return { withInvocationFields, log: createLogger('info') };
}

describe('invocation fields', () => {
  it('keeps each invocation’s request id on its own lines when invocations overlap (the dev server)', async () => {
    const { withInvocationFields, log } = await coldProcess();
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

  it('marks only the process’s first invocation cold, whichever function ran it', async () => {
    const { withInvocationFields, log } = await coldProcess();
    const lines: string[] = [];
    release = captureLogLines((line) => lines.push(line));
    const first = withInvocationFields(async () => log.info('first'));
    const second = withInvocationFields(async () => log.info('second'));

    await second(undefined, { awsRequestId: 'a' });
    await first(undefined, { awsRequestId: 'b' });
    await second(undefined, { awsRequestId: 'c' });

    expect(lines.map((line) => JSON.parse(line).cold_start)).toEqual([true, false, false]);
  });
});
