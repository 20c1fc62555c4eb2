import { createHmac, randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { issueSessionToken, type TokenSettings, verifySessionToken } from '#shared/auth/session-token.ts';
import { UnauthorizedError } from '#shared/errors.ts';
import { respellings } from '#test/helpers/respell.ts';

/** The `typ` every session token carries (RFC 8725 §3.11). */
const TOKEN_TYPE = 'session+jwt';
/** How far ahead of the service's clock a token's `iat` may be. */
const CLOCK_SKEW_SECONDS = 60;

const now = Date.UTC(2026, 11, 1, 9, 0, 0);
const settings: TokenSettings = {
  key: randomBytes(32),
  issuer: 'flight-booking-api',
  audience: 'flight-booking-agents',
};
/** What issuing and verifying take besides the table: the settings and a clock at `now`. */
const deps = { tokens: settings, clock: { now: () => now } };
const agent = { id: 'agt_1', agency_id: 'acme' };

/** The session-state read: an active agent of `acme`, with token `revokedJti` logged out; counts its calls. */
function revocations(revokedJti?: string) {
  const store = {
    calls: 0,
    tableName: 'tokens',
    db: {
      send: async (command: { input: { Key: { pk: string } } }) => {
        store.calls += 1;
        return {
          Item: {
            ...command.input.Key,
            agency_id: 'acme',
            name: 'Ada',
            role: 'AGENT',
            active: true,
            valid_after: 0,
            revoked: revokedJti ? { [revokedJti]: now / 1000 + 3600 } : {},
          },
        };
      },
    } as unknown as DynamoDBDocumentClient,
  };
  return store;
}

const sign = (
  claims: Record<string, unknown>,
  options: { key?: Uint8Array; alg?: string; typ?: string | null; iat?: number; exp?: number } = {},
) => {
  const iat = options.iat ?? now / 1000;
  const typ = options.typ === undefined ? TOKEN_TYPE : options.typ;
  return new SignJWT({ agency_id: 'acme', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', ...(typ !== null && { typ }) })
    .setIssuer((claims.iss as string) ?? settings.issuer)
    .setAudience((claims.aud as string) ?? settings.audience)
    .setSubject('agt_1')
    .setJti('jti-1')
    .setIssuedAt(iat)
    .setExpirationTime(options.exp ?? iat + 3600)
    .sign(options.key ?? settings.key);
};

const HEADER = { alg: 'HS256', typ: TOKEN_TYPE };
/** The claims an issued token carries, with `changes` applied (undefined deletes a claim). */
const claimsOf = (changes: Record<string, unknown>) =>
  JSON.stringify({
    agency_id: 'acme',
    iss: settings.issuer,
    aud: settings.audience,
    sub: 'agt_1',
    jti: 'jti-raw',
    iat: now / 1000,
    exp: now / 1000 + 3600,
    ...changes,
  });
const b64 = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');
/** A token of exactly these two encoded parts, HMAC-signed with the service's key. */
const signParts = async (header: string, payload: string) => {
  const input = `${header}.${payload}`;
  return `${input}.${createHmac('sha256', settings.key).update(input).digest('base64url')}`;
};
/**
 * The issued claims' payload part re-spelled: in the `+/` alphabet (a jti chosen so it has both), or
 * with the unused bits of its last character changed (padded so there are some). A lenient decoder
 * reads either as the same claims.
 */
function respelledPayload(how: '+/' | 'unused bits'): string {
  if (how === '+/') {
    const standard = Buffer.from(claimsOf({ jti: '>>>??' }))
      .toString('base64')
      .replace(/=+$/, '');
    expect(standard).toMatch(/[+/]/);
    return standard;
  }
  const encoded = ['', 'a', 'aa']
    .map((pad) => Buffer.from(claimsOf({ pad })).toString('base64url'))
    .find((text) => text.length % 4 !== 0);
  const changed = respellings(encoded ?? '')['changed unused bits'];
  if (!changed) throw new Error('no payload with unused bits');
  return changed;
}
/** A token with exactly this header and payload text, HMAC-signed with the service's key. */
const signRaw = (header: Record<string, unknown>, payload: string) =>
  signParts(b64(header), Buffer.from(payload).toString('base64url'));

describe('issueSessionToken', () => {
  it('signs HS256 with iss, aud, sub, agency_id, a random jti, iat, auth_time and exp one hour later', async () => {
    const { token, expiresAt } = await issueSessionToken(agent, deps);
    const other = await issueSessionToken(agent, deps);

    const claims = decodeJwt(token);
    expect(claims).toEqual({
      iss: 'flight-booking-api',
      aud: 'flight-booking-agents',
      sub: 'agt_1',
      agency_id: 'acme',
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      iat: now / 1000,
      auth_time: now / 1000,
      exp: now / 1000 + 3600,
    });
    expect(expiresAt).toBe(now / 1000 + 3600);
    expect(decodeJwt(other.token).jti).not.toBe(claims.jti);
  });
});

describe('issueSessionToken for a refresh', () => {
  it('carries the sign-in time over and ends the token 12 hours after it at the latest', async () => {
    const signedInAt = now / 1000 - 11.5 * 3600;

    const { token, expiresAt } = await issueSessionToken(agent, deps, signedInAt);

    expect(decodeJwt(token)).toMatchObject({ iat: now / 1000, auth_time: signedInAt });
    expect(expiresAt).toBe(signedInAt + 12 * 3600);
    expect(decodeJwt(token).exp).toBe(expiresAt);
    expect((await verifySessionToken(token, { ...deps, ...revocations() })).signedInAt).toBe(signedInAt);
  });
});

describe('verifySessionToken', () => {
  it('returns the session of a valid token after one revocation lookup', async () => {
    const store = revocations();
    const { token } = await issueSessionToken(agent, deps);

    const session = await verifySessionToken(token, { ...deps, ...store });

    expect(session).toEqual({
      agentId: 'agt_1',
      agencyId: 'acme',
      agentName: 'Ada',
      role: 'AGENT',
      tokenId: expect.any(String),
      issuedAt: now / 1000,
      expiresAt: now / 1000 + 3600,
      signedInAt: now / 1000,
      expiredLogouts: [],
    });
    expect(store.calls).toBe(1);
  });

  it('refuses a revoked token', async () => {
    const { token } = await issueSessionToken(agent, deps);

    await expect(
      verifySessionToken(token, { ...deps, ...revocations(decodeJwt(token).jti) }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  type Case = [string, () => Promise<string>];
  const refusals: Case[] = [
    [
      'alg none',
      async () =>
        new UnsecuredJWT({
          agency_id: 'acme',
          sub: 'agt_1',
          jti: 'j',
          iss: settings.issuer,
          aud: settings.audience,
        })
          .setIssuedAt(now / 1000)
          .setExpirationTime(now / 1000 + 60)
          .encode(),
    ],
    ['HS512 with the same key (algorithm not pinned)', () => sign({}, { alg: 'HS512' })],
    ['another key', () => sign({}, { key: randomBytes(32) })],
    [
      'an unknown kid, signed with the attacker’s key',
      async () =>
        new SignJWT({ agency_id: 'acme' })
          .setProtectedHeader({ alg: 'HS256', kid: 'attacker-key-1' })
          .setIssuer(settings.issuer)
          .setAudience(settings.audience)
          .setSubject('agt_1')
          .setJti('jti-kid')
          .setIssuedAt(now / 1000)
          .setExpirationTime(now / 1000 + 3600)
          .sign(randomBytes(32)),
    ],
    [
      'an RS256 header (public-key confusion)',
      async () =>
        `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url')}.${(await sign({})).split('.').slice(1).join('.')}`,
    ],
    ['another audience', () => sign({ aud: 'someone-else' })],
    ['another issuer', () => sign({ iss: 'evil-issuer' })],
    ['no agency_id', () => sign({ agency_id: undefined })],
    [
      'tampered claims',
      async () => {
        const [h, p, s] = (await sign({})).split('.');
        const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
        return `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'agt_2' })).toString('base64url')}.${s}`;
      },
    ],
    ['garbage', async () => 'not.a.jwt'],
    ['typ JWT (not a session token)', () => sign({}, { typ: 'JWT' })],
    ['no typ', () => sign({}, { typ: null })],
    ['typ at+jwt', () => sign({}, { typ: 'at+jwt' })],
    ['iat in the future beyond the clock skew', () => sign({}, { iat: now / 1000 + CLOCK_SKEW_SECONDS + 1 })],
    ['a lifetime of ten years', () => sign({}, { exp: now / 1000 + 10 * 365 * 86_400 })],
    ['a lifetime one second longer than a session', () => sign({}, { exp: now / 1000 + 3601 })],
    // Rules the service's own verifier applies after the signature (shared/auth/session-token.ts).
    [
      'the same header with its fields in another order, correctly signed',
      () => signRaw({ typ: TOKEN_TYPE, alg: 'HS256' }, claimsOf({})),
    ],
    [
      'the same header plus a kid, correctly signed',
      () => signRaw({ alg: 'HS256', typ: TOKEN_TYPE, kid: 'k1' }, claimsOf({})),
    ],
    ['an audience array holding the audience', () => signRaw(HEADER, claimsOf({ aud: [settings.audience] }))],
    ['no sub', () => signRaw(HEADER, claimsOf({ sub: undefined }))],
    ['an empty jti', () => signRaw(HEADER, claimsOf({ jti: '' }))],
    ['an exp written as a string', () => signRaw(HEADER, claimsOf({ exp: String(now / 1000 + 60) }))],
    ['a fractional iat', () => signRaw(HEADER, claimsOf({ iat: now / 1000 - 0.5 }))],
    ['an nbf in the future', () => signRaw(HEADER, claimsOf({ nbf: now / 1000 + 60 }))],
    [
      'an exp more than 12 hours after its auth_time (the sign-in)',
      () => signRaw(HEADER, claimsOf({ auth_time: now / 1000 + 3600 - 12 * 3600 - 1 })),
    ],
    ['an auth_time after its iat', () => signRaw(HEADER, claimsOf({ auth_time: now / 1000 + 1 }))],
    ['an auth_time written as a string', () => signRaw(HEADER, claimsOf({ auth_time: String(now / 1000) }))],
    ['a payload that is not JSON, correctly signed', () => signRaw(HEADER, 'not json')],
    ...['null', '[]', '"text"', '42', 'true'].map(
      (json) => [`a payload of ${json}, correctly signed`, () => signRaw(HEADER, json)] as Case,
    ),
    [
      'a payload with = padding, correctly signed',
      () => signParts(b64(HEADER), `${Buffer.from(claimsOf({})).toString('base64url')}=`),
    ],
    ['a payload in the +/ alphabet, correctly signed', () => signParts(b64(HEADER), respelledPayload('+/'))],
    [
      'a payload with changed unused bits, correctly signed',
      () => signParts(b64(HEADER), respelledPayload('unused bits')),
    ],
    ['four parts', async () => `${await sign({})}.AAAA`],
    ...Object.entries(respellings('x.y.z')).map(
      ([kind]) =>
        [
          `the issued token re-spelled with ${kind}`,
          async () => respellings((await issueSessionToken(agent, deps)).token)[kind] ?? '',
        ] as [string, () => Promise<string>],
    ),
  ];

  it.each(refusals)('refuses %s without a database call', async (_case, make) => {
    const store = revocations();

    await expect(verifySessionToken(await make(), { ...deps, ...store })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(store.calls).toBe(0);
  });

  it('accepts a token signed outside jose with the issued header and claims (the control for the cases above)', async () => {
    const session = await verifySessionToken(await signRaw(HEADER, claimsOf({})), {
      ...deps,
      ...revocations(),
    });

    expect(session).toMatchObject({ agentId: 'agt_1', agencyId: 'acme', tokenId: 'jti-raw' });
  });

  it('accepts an iat within the clock skew, as another instance may run a little ahead', async () => {
    const token = await sign({}, { iat: now / 1000 + CLOCK_SKEW_SECONDS });

    await expect(verifySessionToken(token, { ...deps, ...revocations() })).resolves.toMatchObject({
      agentId: 'agt_1',
    });
  });

  it('refuses every re-spelling of an issued token, including the signature’s unused bits', async () => {
    const { token } = await issueSessionToken(agent, deps);
    const spellings = respellings(token);

    expect(Object.keys(spellings)).toEqual(
      expect.arrayContaining(['changed unused bits', 'one = of padding']),
    );
    for (const spelling of Object.values(spellings)) {
      await expect(verifySessionToken(spelling, { ...deps, ...revocations() })).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
    }
  });

  it('refuses a token from the moment it expires', async () => {
    const { token } = await issueSessionToken(agent, deps);
    const later = { ...deps, clock: { now: () => now + 3600 * 1000 } };

    await expect(verifySessionToken(token, { ...later, ...revocations() })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });
});

describe('verifySessionToken in a warm container', () => {
  it('still refuses a token it verified before, once it has expired', async () => {
    let now = Date.UTC(2026, 11, 1, 9, 0, 0);
    const warm = { tokens: { ...settings }, clock: { now: () => now } };
    const { token } = await issueSessionToken(agent, warm);

    await expect(verifySessionToken(token, { ...warm, ...revocations() })).resolves.toMatchObject({
      agentId: 'agt_1',
    });
    now += 3600 * 1000;
    await expect(verifySessionToken(token, { ...warm, ...revocations() })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('still checks revocation on every request for a token it verified before', async () => {
    const warm = { ...deps, tokens: { ...settings } };
    const { token } = await issueSessionToken(agent, warm);
    await verifySessionToken(token, { ...warm, ...revocations() });

    await expect(
      verifySessionToken(token, { ...warm, ...revocations(decodeJwt(token).jti) }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('does not accept a re-spelling of a token it verified before', async () => {
    const warm = { ...deps, tokens: { ...settings } };
    const { token } = await issueSessionToken(agent, warm);
    await verifySessionToken(token, { ...warm, ...revocations() });

    for (const spelling of Object.values(respellings(token))) {
      await expect(verifySessionToken(spelling, { ...warm, ...revocations() })).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
    }
  });

  it('does not accept under other settings a token verified under these', async () => {
    const warm = { ...deps, tokens: { ...settings } };
    const { token } = await issueSessionToken(agent, warm);
    await verifySessionToken(token, { ...warm, ...revocations() });

    await expect(
      verifySessionToken(token, {
        ...warm,
        tokens: { ...warm.tokens, audience: 'someone-else' },
        ...revocations(),
      }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
