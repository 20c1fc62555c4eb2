import { gzipSync } from 'node:zlib';

/**
 * The compression API Gateway applies to the deployed stage (`minCompressionSize` 1 KiB, infra/stack.ts),
 * done by the dev server for the console's files, so `npm start` serves them as they are deployed
 * (docs/decisions.md, "The console, deployed"): gzip, for a client whose `Accept-Encoding` takes it.
 */
const COMPRESSED_FROM_BYTES = 1024;

/**
 * Whether an `Accept-Encoding` header takes gzip (RFC 9110 §12.5.3): `gzip` or `*` listed without
 * `q=0`. An absent header takes only the body as it is.
 */
function acceptsGzip(header: string | undefined): boolean {
  for (const entry of (header ?? '').split(',')) {
    const [name = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/** Bodies already gzipped, by their text: a build's files are few and never change while served. */
const gzipped = new Map<string, Buffer>();

/** The bytes to send for `text` and the `Content-Encoding` they carry, given the request's `Accept-Encoding`. */
export function encodedBody(
  text: string,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: 'gzip' } {
  const plain = Buffer.from(text, 'utf8');
  if (plain.length < COMPRESSED_FROM_BYTES || !acceptsGzip(acceptEncoding)) return { body: plain };
  let body = gzipped.get(text);
  if (!body) {
    body = gzipSync(plain);
    gzipped.set(text, body);
  }
  return { body, encoding: 'gzip' };
}
