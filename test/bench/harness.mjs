// Cold start, in a fresh Node process: import a bundle and invoke its handler once.
// argv: bundle path, event file. Prints one JSON line, then exits at once.
import { readFileSync } from 'node:fs';

const started = performance.now();
const { handler } = await import(process.argv[2]);
const imported = performance.now();
const event = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const context = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 };
const result = await handler(event, context);
const done = performance.now();
process.stdout.write(
  `${JSON.stringify({ importMs: imported - started, invokeMs: done - imported, status: result.statusCode })}\n`,
);
process.exit(0);
