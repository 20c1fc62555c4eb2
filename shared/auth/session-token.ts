import { randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { jwtVerify, SignJWT } from 'jose';
import { decodeCanonicalBase64url } from '../base64url.ts';
import type { Clock } from '../clock.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Session } from './session.ts';
import { expiredLogouts, isSessionValid, readSessionState, type VerifiedClaims } from './session-state.ts';

/** Session lifetime in seconds (docs/API.md §3.2). */
export const SESSION_TTL_SECONDS = 3600;

/** The one algorithm tokens are signed with and the only one accepted when verifying. */
const ALGORITHM = 'HS256';
/**
 * Explicit typing (RFC 8725 §3.11): the `typ` header names what the token is for, so no other JWT
 * signed with a related key can pass for a session token.
 */
export const TOKEN_TYPE = 'session+jwt';
/** How far ahead of our clock a token's `iat` may be (another instance's clock may run ahead). */
export const CLOCK_SKEW_SECONDS = 60;
/** A compact JWS in canonical base64url: three parts, no padding, no other alphabet. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface TokenSettings {
  readonly key: Uint8Array;
  readonly issuer: string;
  readonly audience: string;
  readonly clock: Clock;
}

export interface TokenStore {
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: number;
}

/**
 * Signs a session token for an agent: HS256 with `iss`, `aud`, `sub` (agent id), `agency_id`, a random
 * `jti`, `iat` and `exp` one hour later.
 */
export async function issueSessionToken(
  agent: { id: string; agency_id: string },
  settings: TokenSettings,
): Promise<IssuedToken> {
  const issuedAt = Math.floor(settings.clock.now() / 1000);
  const expiresAt = issuedAt + SESSION_TTL_SECONDS;
  const token = await new SignJWT({ agency_id: agent.agency_id })
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(agent.id)
    .setJti(randomBytes(16).toString('base64url'))
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(settings.key);
  return { token, expiresAt };
}

/** Tokens whose signature, issuer and audience were verified in this container, per settings. */
const verified = new WeakMap<TokenSettings, Map<string, VerifiedClaims>>();
const VERIFIED_LIMIT = 1000;

/**
 * Verifies the token's spelling (exactly one per token), signature (HS256 only), `typ`, `iss`, `aud`,
 * `exp`, an `iat` not in the future and a lifetime no longer than the service issues, then reads the
 * agent's session state with one consistent GetItem: a logout, a deactivation or a role change takes
 * effect on the very next request.
 * A token already verified in this warm container skips the signature check (the token string itself
 * is the cache key, so nothing unsigned can hit it); expiry and the session state are checked every
 * time. Every failure is the same 401: the client learns nothing about why.
 */
export async function verifySessionToken(
  token: string,
  settings: TokenSettings,
  store: TokenStore,
): Promise<Session> {
  let cache = verified.get(settings);
  if (!cache) {
    cache = new Map();
    verified.set(settings, cache);
  }
  let claims = cache.get(token);
  if (claims && claims.expiresAt * 1000 <= settings.clock.now()) {
    cache.delete(token);
    throw new UnauthorizedError({ tokenPresented: true });
  }
  if (!claims) {
    // Only canonical text is ever verified, so only canonical text is ever found in the memo above.
    if (!isCanonicalToken(token)) throw new UnauthorizedError({ tokenPresented: true });
    claims = await verifySignature(token, settings);
    cache.set(token, claims);
    if (cache.size > VERIFIED_LIMIT) cache.delete(cache.keys().next().value ?? '');
  }
  const state = await readSessionState(store, claims.agentId);
  if (!isSessionValid(claims, state)) throw new UnauthorizedError({ tokenPresented: true });
  return {
    agentId: claims.agentId,
    agencyId: claims.agencyId,
    agentName: state.name,
    role: state.role,
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
    expiredLogouts: expiredLogouts(state, Math.floor(settings.clock.now() / 1000)),
  };
}

async function verifySignature(token: string, settings: TokenSettings): Promise<VerifiedClaims> {
  try {
    const { payload } = await jwtVerify(token, settings.key, {
      algorithms: [ALGORITHM],
      typ: TOKEN_TYPE,
      issuer: settings.issuer,
      audience: settings.audience,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      currentDate: new Date(settings.clock.now()),
    });
    if (
      typeof payload.agency_id !== 'string' ||
      !payload.sub ||
      !payload.jti ||
      payload.exp === undefined ||
      payload.iat === undefined
    ) {
      throw new UnauthorizedError();
    }
    // Tokens the service never issues: signed "in the future", or living longer than a session.
    const now = Math.floor(settings.clock.now() / 1000);
    if (payload.iat > now + CLOCK_SKEW_SECONDS || payload.exp - payload.iat > SESSION_TTL_SECONDS) {
      throw new UnauthorizedError();
    }
    return {
      agentId: payload.sub,
      agencyId: payload.agency_id,
      tokenId: payload.jti,
      issuedAt: payload.iat,
      expiresAt: payload.exp,
    };
  } catch {
    throw new UnauthorizedError({ tokenPresented: true });
  }
}

/**
 * Whether every part of the compact JWS is canonical base64url. jose decodes leniently, so without
 * this check a signature with its unused bits changed, or `=` appended, would verify as well.
 */
function isCanonicalToken(token: string): boolean {
  return COMPACT_JWS.test(token) && token.split('.').every((part) => decodeCanonicalBase64url(part));
}
