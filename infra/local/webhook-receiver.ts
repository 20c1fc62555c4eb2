/**
 * `npm run receiver -- --port <port> --secret <whsec_…> [--fail <n>] [--exit-after <n>]`: a webhook receiver for trying
 * the service locally. It verifies each delivery's Standard Webhooks signature with the specification's
 * own library (as any receiver may), answers 204 (or 500 to the first `n` deliveries, to watch the
 * retries), and prints one line per delivery: `verified <type> <webhook-id> version <n> <status>`, or
 * `REJECTED <reason>`. Deliveries repeated with a `webhook-id` already seen are printed as duplicates.
 * With `--exit-after <n>` it exits once it has accepted n deliveries, or with status 1 after
 * `--timeout` seconds (60) if they do not come.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    secret: { type: 'string' },
    fail: { type: 'string', default: '0' },
    'exit-after': { type: 'string' },
    timeout: { type: 'string', default: '60' },
  },
});
if (!values.port || !values.secret) {
  console.error(
    'usage: npm run receiver -- --port <port> --secret <whsec_…> [--fail <n>] [--exit-after <n> [--timeout <s>]]',
  );
  process.exit(2);
}
const verifier = new Webhook(values.secret);
let failuresLeft = Number(values.fail);
const seen = new Set<string>();
const exitAfter = values['exit-after'] === undefined ? undefined : Number(values['exit-after']);
let accepted = 0;
if (exitAfter !== undefined)
  setTimeout(() => {
    console.log(`timed out: ${accepted} of ${exitAfter} deliveries accepted`);
    process.exit(1);
  }, Number(values.timeout) * 1000);

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    );
    let event: { type: string; data: { booking_id: string; version: number; status: string } };
    try {
      event = verifier.verify(body, headers) as typeof event;
    } catch (error) {
      console.log(`REJECTED ${(error as Error).message}`);
      res.writeHead(400).end();
      return;
    }
    const id = headers['webhook-id'] ?? '';
    const status = failuresLeft > 0 ? 500 : 204;
    if (failuresLeft > 0) failuresLeft -= 1;
    const repeat = seen.has(id) ? ' (again)' : '';
    if (status === 204) seen.add(id);
    console.log(
      `verified ${event.type} ${id} ${event.data.booking_id} version ${event.data.version} -> ${status}${repeat}`,
    );
    res.writeHead(status).end();
    if (status === 204) accepted += 1;
    if (exitAfter !== undefined && accepted >= exitAfter) server.close(() => process.exit(0));
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`receiver listening on http://127.0.0.1:${values.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
