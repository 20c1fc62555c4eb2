import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSigningKeys } from '#shared/auth/signing-keys.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import {
  type Answer,
  errorAnswer,
  secretAnswer,
  startSecretsManagerStandIn,
} from '#test/helpers/secrets-manager-stand-in.ts';
import { signingKeysOf } from '#test/helpers/signing-keys.ts';

const master = randomBytes(48).toString('base64url');
const refusal = { name: 'SigningKeyError' };

describe('signing keys', () => {
  it('derives two different 256-bit keys from one master secret, the same each time', async () => {
    const keys = await signingKeysOf(master);

    expect(keys.token).toHaveLength(32);
    expect(keys.otp).toHaveLength(32);
    expect(Buffer.from(keys.token).equals(Buffer.from(keys.otp))).toBe(false);
    expect(Buffer.from((await signingKeysOf(master)).token).equals(Buffer.from(keys.token))).toBe(true);
  });

  it('refuses a master secret too short to hold 256 bits', async () => {
    await expect(signingKeysOf('short-secret')).rejects.toMatchObject({
      ...refusal,
      message: 'the signing key must be at least 43 characters',
    });
  });

  it('reads the master secret from a file, ignoring a trailing newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    writeFileSync(join(dir, 'signing.key'), `${master}\n`);

    const keys = await loadSigningKeys({ file: join(dir, 'signing.key') });

    expect(Buffer.from(keys.token).equals(Buffer.from((await signingKeysOf(master)).token))).toBe(true);
  });

  it('fails clearly, without echoing the path, when the file is missing', async () => {
    const missing = join(tmpdir(), 'no-such-dir', 'signing.key');

    const error = await loadSigningKeys({ file: missing }).catch((e: Error) => e);

    expect(error).toMatchObject(refusal);
    expect((error as Error).message).toBe('cannot read the signing key file (ENOENT)');
  });

  it('fails clearly when no source is configured', async () => {
    await expect(loadSigningKeys({})).rejects.toThrow(/no signing key configured/);
  });
});

describe('fn: loadSigningKeys from Secrets Manager', () => {
  const aws = createDocumentClient('http://127.0.0.1:9', 'eu-west-2').config;
  const closing: (() => Promise<void>)[] = [];
  async function secretsManager(answer: Answer) {
    const server = await startSecretsManagerStandIn('local', [answer]);
    closing.push(server.close);
    vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', server.url);
    return server;
  }
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(closing.splice(0).map((close) => close()));
  });

  it('derives the keys from the secret read through the given SDK core, with one signed call', async () => {
    const server = await secretsManager(secretAnswer('signing-key', master));

    const keys = await loadSigningKeys({ secretId: 'signing-key' }, aws);

    expect(Buffer.from(keys.token).equals(Buffer.from((await signingKeysOf(master)).token))).toBe(true);
    expect(server.requests.map((request) => request.signatureValid)).toEqual([true]);
  });

  it.each([
    [
      'a missing secret',
      errorAnswer(400, 'ResourceNotFoundException', "Secrets Manager can't find the specified secret."),
      /ResourceNotFoundException/,
    ],
    [
      'a refused read',
      errorAnswer(400, 'AccessDeniedException', 'not authorized'),
      /400 AccessDeniedException: not authorized/,
    ],
    [
      'a binary secret',
      { status: 200, body: JSON.stringify({ SecretBinary: Buffer.from(master).toString('base64') }) },
      /no string value/,
    ],
    ['a key too short', secretAnswer('signing-key', master.slice(0, 20)), /at least 43 characters/],
    ['a network failure', 'drop' as const, /could not be reached \(ECONNRESET\)/],
  ])('fails loudly on %s, never naming the value', async (_, answer, message) => {
    await secretsManager(answer);

    const error = await loadSigningKeys({ secretId: 'signing-key' }, aws).catch((e: Error) => e);

    expect(error).toMatchObject(refusal);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(master.slice(0, 20));
  });

  it("fails a function's init, before any request, when the key cannot be read; starts when it can", async () => {
    const init = (endpoint: string) =>
      promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', "await import('#shared/context.ts')"],
        {
          env: {
            PATH: process.env.PATH,
            TABLE_NAME: 't',
            SIGNING_KEY_SECRET_ID: 'signing-key',
            AWS_REGION: 'eu-west-2',
            AWS_ACCESS_KEY_ID: 'AKIDTEST',
            AWS_SECRET_ACCESS_KEY: 'local',
            AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
          },
        },
      ).then(
        () => 'started',
        (error: { stderr: string }) => error.stderr,
      );
    const short = await secretsManager(secretAnswer('signing-key', master.slice(0, 20)));
    const good = await secretsManager(secretAnswer('signing-key', master));

    const [refused, started] = await Promise.all([init(short.url), init(good.url)]);

    expect(refused).toMatch(/SigningKeyError: the signing key must be at least 43 characters/);
    expect(refused).not.toContain(master.slice(0, 20));
    expect(started).toBe('started');
    expect([...short.requests, ...good.requests].map((request) => request.credential)).toEqual([
      expect.stringMatching(/^AKIDTEST\/\d{8}\/eu-west-2\/secretsmanager\//),
      expect.stringMatching(/^AKIDTEST\//),
    ]);
    expect([...short.requests, ...good.requests].every((request) => request.signatureValid)).toBe(true);
  });
});
