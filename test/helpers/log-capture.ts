/**
 * The logger's lines as it really writes them: one JSON object per write to process.stdout, its first
 * key `level` (shared/log.ts). Lines are taken from the real stream, not through a hook in the logger.
 */

/** Every log line written while this test file runs, in order (integration-setup.ts fills it). */
export const capturedLogLines: string[] = [];

/**
 * Hands every log line written to stdout to `take` instead of printing it (other output passes)
 * until the returned function is called.
 */
export function captureLogLines(take: (line: string) => void): () => void {
  const write = process.stdout.write;
  process.stdout.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' && chunk.startsWith('{"level":')) {
      take(chunk.replace(/\n$/, ''));
      return true;
    }
    return Reflect.apply(write, this, [chunk, ...rest]);
  } as typeof process.stdout.write;
  return () => {
    process.stdout.write = write;
  };
}
