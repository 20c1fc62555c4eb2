import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveSigningKeys, loadSigningKeys, SigningKeyError } from '#shared/auth/signing-keys.ts';

const master = randomBytes(48).toString('base64url');

describe('signing keys', () => {
  it('derives two different 256-bit keys from one master secret, the same each time', () => {
    const keys = deriveSigningKeys(master);

    expect(keys.token).toHaveLength(32);
    expect(keys.otp).toHaveLength(32);
    expect(Buffer.from(keys.token).equals(Buffer.from(keys.otp))).toBe(false);
    expect(Buffer.from(deriveSigningKeys(master).token).equals(Buffer.from(keys.token))).toBe(true);
  });

  it('refuses a master secret too short to hold 256 bits', () => {
    expect(() => deriveSigningKeys('short-secret')).toThrow(SigningKeyError);
  });

  it('reads the master secret from a file, ignoring a trailing newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    writeFileSync(join(dir, 'signing.key'), `${master}\n`);

    const keys = await loadSigningKeys({ file: join(dir, 'signing.key') });

    expect(Buffer.from(keys.token).equals(Buffer.from(deriveSigningKeys(master).token))).toBe(true);
  });

  it('fails clearly, without echoing the path, when the file is missing', async () => {
    const missing = join(tmpdir(), 'no-such-dir', 'signing.key');

    const error = await loadSigningKeys({ file: missing }).catch((e: Error) => e);

    expect(error).toBeInstanceOf(SigningKeyError);
    expect((error as Error).message).toBe('cannot read the signing key file (ENOENT)');
  });

  it('fails clearly when no source is configured', async () => {
    await expect(loadSigningKeys({})).rejects.toThrow(/no signing key configured/);
  });
});
