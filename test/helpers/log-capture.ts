import { logSink } from '#shared/log.ts';

/** Every log line written while this test file runs, in order. */
export const capturedLogLines: string[] = [];

logSink.write = (line) => {
  capturedLogLines.push(line);
};
