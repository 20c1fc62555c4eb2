import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ResolvedAddress } from './webhook-url.ts';

/** Any 2xx within this is delivered (docs/API.md §4.6). */
const DELIVERY_TIMEOUT_MS = 10_000;
/** A receiver's answer is read up to this many bytes, then the connection is dropped. */
const MAX_RESPONSE_BYTES = 4096;

/** What came of one POST: the status when an answer came, or why none did. */
export type PostOutcome =
  | { readonly delivered: boolean; readonly status: number }
  | { readonly delivered: false; readonly error: 'timeout' | 'connection' };

/** A DNS lookup that answers `address` whatever the name: the connection goes where the check went. */
const pinnedLookup =
  (address: ResolvedAddress) =>
  (
    _hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };

/**
 * POSTs `body` to `url` on exactly `address` (checked beforehand: the name is not resolved again, so a
 * DNS answer that changes between check and connection cannot redirect the request), with TLS checked
 * against the URL's host name. Redirects are not followed (a 3xx is a failed attempt), the status must
 * come within {@link DELIVERY_TIMEOUT_MS} (any 2xx then is delivered, however slowly its body follows),
 * and at most {@link MAX_RESPONSE_BYTES} of the answer are read within that deadline.
 */
export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<PostOutcome> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(address),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'flight-booking-webhooks/1',
        },
        agent: false,
      },
      (res) => {
        // The status decides, as soon as it comes: a receiver that then trickles its body is not
        // waited for. The body is drained up to MAX_RESPONSE_BYTES (or the deadline), then the
        // connection is closed.
        const status = res.statusCode ?? 0;
        settle({ delivered: status >= 200 && status < 300, status });
        let read = 0;
        const close = () => {
          clearTimeout(timer);
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES) close();
        });
        res.on('end', close);
        res.on('error', close);
      },
    );
    const timer = setTimeout(() => {
      settle({ delivered: false, error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('error', () => {
      clearTimeout(timer);
      settle({ delivered: false, error: 'connection' });
    });
    req.end(body);
  });
}
