// Cold start, in a fresh Node process: import a bundle and invoke its handler once.
// argv: bundle path, event file, then any warm event files (memory sizing): each invoked after the first
// answer, BENCH_WARM_GAP_MS apart. Prints one JSON line, then exits at once. `totalMs` is the time from
// the process's start (performance's time origin) to the first answer.
import { readFileSync } from 'node:fs';

const started = performance.now();
const { handler } = await import(process.argv[2]);
const imported = performance.now();
const event = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 };
const result = await handler(event, context);
const done = performance.now();
const warm = [];
for (const file of process.argv.slice(4)) {
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_WARM_GAP_MS ?? 0)));
  const warmEvent = JSON.parse(readFileSync(file, 'utf8'));
  const before = performance.now();
  const answer = await handler(warmEvent, context);
  warm.push({ ms: performance.now() - before, status: answer.statusCode });
}
/**
 * Peak resident memory of this process's own image, MB: Linux's VmHWM, which starts afresh at exec.
 * getrusage's maxRSS does not: it keeps the spawning process's resident size from the fork (a 300 MB
 * parent made every child report 290 MB), so it is only the fallback off Linux.
 */
function peakRssMb() {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}
process.stdout.write(
  `${JSON.stringify({ importMs: imported - started, invokeMs: done - imported, totalMs: done, status: result.statusCode, warm, maxRssMb: peakRssMb() })}\n`,
);
process.exit(0);
