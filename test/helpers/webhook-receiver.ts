import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Standard Webhooks verification written from the specification with node:crypto, independent of the
 * `standardwebhooks` package the service signs with: the secret is the base64 after `whsec_`; the
 * signed content is `<webhook-id>.<webhook-timestamp>.<body>`; `webhook-signature` is a space-separated
 * list of `v1,<base64 HMAC-SHA256>`, one of which must match; the timestamp must be within 5 minutes.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const [id, timestamp, signatures] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) =>
    String(headers[name] ?? ''),
  );
  if (!id || !/^\d+$/.test(timestamp ?? '') || !signatures) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ReceivedDelivery {
  readonly id: string;
  readonly timestamp: string;
  readonly verified: boolean;
  readonly body: { type: string; timestamp: string; data: Record<string, unknown> & { version: number } };
  /** The status answered. */
  readonly status: number;
  /** When the request's body had arrived (epoch ms). */
  readonly at: number;
}

/** `status` answers with it; `hang` never answers (the connection stays open until the receiver closes). */
export type Answer = number | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1 that records every delivery and verifies its signature with
 * {@link verifyStandardWebhook}; `answer(n)` decides how the n-th request (from 1) is answered (204 by
 * default). Its secret is set once the endpoint is created.
 */
export async function startReceiver(answer: (n: number) => Answer = () => 204) {
  const deliveries: ReceivedDelivery[] = [];
  let secret = '';
  let hanging = 0;
  const held = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const reply = answer(deliveries.length + 1);
      deliveries.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        verified: verifyStandardWebhook(secret, req.headers, text),
        body: JSON.parse(text),
        status: reply === 'hang' ? 0 : reply,
        at: Date.now(),
      });
      if (reply === 'hang') {
        hanging += 1;
        held.add(() => res.destroy());
        return;
      }
      res.writeHead(reply).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    deliveries,
    /** Requests held open right now. */
    hanging: () => hanging,
    useSecret(value: string) {
      secret = value;
    },
    async close() {
      for (const release of held) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `condition()` holds, checking every 50 ms, for at most `ms`; then throws naming `what`. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 8000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
