import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSigningKeys, type SigningKeys } from '#shared/auth/signing-keys.ts';

/** The keys a master `secret` gives, read as `npm start` reads them: from a file of its own. */
export async function signingKeysOf(secret: string): Promise<SigningKeys> {
  const file = join(mkdtempSync(join(tmpdir(), 'signing-key-')), 'signing.key');
  writeFileSync(file, secret);
  return loadSigningKeys({ file });
}
