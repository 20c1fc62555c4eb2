import { hkdfSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { readSecretString, type SdkCore } from '../secret-value.ts';

/**
 * Keys derived from the one master secret (HKDF-SHA256), one per purpose, so no key ever serves two.
 */
export interface SigningKeys {
  /** HS256 key for session tokens. */
  readonly token: Uint8Array;
  /** HMAC-SHA256 key for stored OTP codes. */
  readonly otp: Uint8Array;
  /** AES-256-GCM key sealing offer ids. */
  readonly offer: Uint8Array;
  /** AES-256-GCM key encrypting webhook endpoints' signing secrets at rest. */
  readonly webhook: Uint8Array;
}

/** A master secret shorter than this cannot carry 256 bits (43 base64url characters). */
const MIN_MASTER_KEY_LENGTH = 43;

class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

function deriveSigningKeys(master: string): SigningKeys {
  const secret = master.trim();
  if (secret.length < MIN_MASTER_KEY_LENGTH) {
    throw new SigningKeyError(`the signing key must be at least ${MIN_MASTER_KEY_LENGTH} characters`);
  }
  const derive = (purpose: string) =>
    new Uint8Array(hkdfSync('sha256', secret, 'flight-booking-api', purpose, 32));
  return {
    token: derive('session-token'),
    otp: derive('otp-hmac'),
    offer: derive('offer-id'),
    webhook: derive('webhook-secret'),
  };
}

/**
 * Reads the master secret once per cold start: from Secrets Manager when deployed (one GetSecretValue
 * through `aws`, the SDK core of the client the function already has), from a file locally. Fails
 * with a message that names the source and the problem but never the secret.
 */
export async function loadSigningKeys(
  source: { secretId?: string; file?: string },
  aws?: SdkCore,
): Promise<SigningKeys> {
  if (source.secretId) {
    if (!aws) throw new SigningKeyError('the signing key secret needs an AWS client to be read with');
    const secret = await readSecretString(aws, source.secretId).catch((error: Error) => {
      throw new SigningKeyError(`cannot read the signing key secret: ${error.message}`);
    });
    if (secret === undefined) throw new SigningKeyError('the signing key secret has no string value');
    return deriveSigningKeys(secret);
  }
  if (source.file) {
    const text = await readFile(source.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new SigningKeyError(`cannot read the signing key file (${error.code ?? 'unknown error'})`);
    });
    return deriveSigningKeys(text);
  }
  throw new SigningKeyError('no signing key configured: set SIGNING_KEY_SECRET_ID or SIGNING_KEY_FILE');
}
