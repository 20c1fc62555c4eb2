import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { decodeCanonicalBase64url } from '../base64url.ts';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { attributesOf } from '../db/stored-item.ts';
import { UnauthorizedError } from '../errors.ts';
import type { Session } from './session.ts';
import { readSessionState, type SessionState } from './session-state-item.ts';

/** Session lifetime in seconds (docs/API.md §3.2). */
export const SESSION_TTL_SECONDS = 3600;
/**
 * How long a sign-in lasts however often it is refreshed (docs/API.md §3.3b): every token carries its
 * sign-in time (`auth_time`), and none expires later than this after it.
 */
const SIGN_IN_MAX_SECONDS = 12 * 3600;

/** The one algorithm tokens are signed with and the only one accepted when verifying. */
const ALGORITHM = 'HS256';
/**
 * Explicit typing (RFC 8725 §3.11): the `typ` header names what the token is for, so no other JWT
 * signed with a related key can pass for a session token.
 */
const TOKEN_TYPE = 'session+jwt';
/** How far ahead of our clock a token's `iat` may be (another instance's clock may run ahead). */
const CLOCK_SKEW_SECONDS = 60;

/** What tokens are signed and checked with: built once per cold start with the context (context.ts). */
export interface TokenSettings {
  readonly key: Uint8Array;
  readonly issuer: string;
  readonly audience: string;
}

/** What issuing a token needs: the settings and the clock. */
export interface TokenDeps {
  readonly tokens: TokenSettings;
  readonly clock: Clock;
}

/** The claims of a token whose signature, type, issuer, audience and times were verified. */
interface VerifiedClaims {
  agentId: string;
  agencyId: string;
  tokenId: string;
  issuedAt: number;
  expiresAt: number;
  signedInAt: number;
}

interface IssuedToken {
  token: string;
  expiresAt: number;
}

/**
 * Signs a session token for an agent: HS256 with `iss`, `aud`, `sub` (agent id), `agency_id`, a random
 * `jti`, `iat`, `auth_time` (the sign-in's second: now, or `signedInAt` for a refresh, epoch seconds)
 * and `exp` one hour later, but never later than SIGN_IN_MAX_SECONDS after the sign-in.
 */
export async function issueSessionToken(
  agent: { id: string; agency_id: string },
  { tokens: settings, clock }: TokenDeps,
  signedInAt?: number,
): Promise<IssuedToken> {
  const issuedAt = Math.floor(clock.now() / 1000);
  const authTime = signedInAt ?? issuedAt;
  const expiresAt = Math.min(issuedAt + SESSION_TTL_SECONDS, authTime + SIGN_IN_MAX_SECONDS);
  const token = await new SignJWT({ agency_id: agent.agency_id, auth_time: authTime })
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
export async function verifySessionToken(token: string, deps: TokenDeps & TableHandle): Promise<Session> {
  const { tokens: settings, clock } = deps;
  let cache = verified.get(settings);
  if (!cache) {
    cache = new Map();
    verified.set(settings, cache);
  }
  let claims = cache.get(token);
  if (claims && claims.expiresAt * 1000 <= clock.now()) {
    cache.delete(token);
    throw new UnauthorizedError({ tokenPresented: true });
  }
  if (!claims) {
    claims = verifySignature(token, settings, clock);
    cache.set(token, claims);
    if (cache.size > VERIFIED_LIMIT) cache.delete(cache.keys().next().value ?? '');
  }
  const state = await readSessionState(deps, claims.agentId);
  if (!isSessionValid(claims, state)) throw new UnauthorizedError({ tokenPresented: true });
  return {
    agentId: claims.agentId,
    agencyId: claims.agencyId,
    agentName: state.name,
    identifier: state.identifier,
    role: state.role,
    tokenId: claims.tokenId,
    issuedAt: claims.issuedAt,
    expiresAt: claims.expiresAt,
    signedInAt: claims.signedInAt,
    expiredLogouts: expiredLogouts(state, Math.floor(clock.now() / 1000)),
  };
}

/**
 * Whether verified claims still make a session (docs/API.md §3.4): the agent exists in the token's
 * agency, is active, the token was issued after the agent's tokens were last invalidated, and was not
 * logged out. Pure: the caller did the one read.
 */
export function isSessionValid(
  claims: Pick<VerifiedClaims, 'agencyId' | 'issuedAt' | 'tokenId'>,
  state: SessionState | undefined,
): state is SessionState {
  return (
    state !== undefined &&
    state.agency_id === claims.agencyId &&
    state.active &&
    claims.issuedAt >= state.valid_after &&
    state.revoked[claims.tokenId] === undefined
  );
}

/** Logged-out tokens in `state` past their expiry: nothing needs to remember them any longer. */
function expiredLogouts(state: SessionState, nowSeconds: number): string[] {
  return Object.entries(state.revoked)
    .filter(([, exp]) => exp <= nowSeconds)
    .map(([jti]) => jti)
    .slice(0, 50);
}

/**
 * The protected header of every token the service signs, as it appears in the token. A token is only
 * checked further when its header is exactly this text: no other algorithm, key id, `crit` or `b64`
 * option can reach the signature check.
 */
const SIGNED_HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: TOKEN_TYPE })).toString('base64url');

/**
 * Verifies an HS256 session token with node:crypto (synchronous HMAC-SHA256, constant-time compare),
 * then its claims. jose signs the tokens; verifying here instead of with jose's `jwtVerify` costs about
 * 3 µs instead of about 55 µs per request, most of which is WebCrypto's per-call job (docs/decisions.md,
 * "Cold start and packages"). Every rule jose applied is kept, and the header rule is stricter than jose's.
 */
function verifySignature(token: string, settings: TokenSettings, clock: Clock): VerifiedClaims {
  // One spelling per token: the header is compared as text, the signature must be canonical base64url,
  // and the HMAC covers the payload's text, so a re-spelled payload fails the signature.
  const parts = token.split('.');
  const [header = '', payload = '', signature = ''] = parts;
  const given = decodeCanonicalBase64url(signature);
  const expected = createHmac('sha256', settings.key).update(`${header}.${payload}`).digest();
  if (
    parts.length !== 3 ||
    header !== SIGNED_HEADER ||
    given?.length !== expected.length ||
    !timingSafeEqual(given, expected)
  ) {
    throw new UnauthorizedError({ tokenPresented: true });
  }
  const claims = readClaims(payload, settings, clock);
  if (!claims) throw new UnauthorizedError({ tokenPresented: true });
  return claims;
}

/** The claims of a correctly signed payload, or undefined when any rule of a session token fails. */
function readClaims(payload: string, settings: TokenSettings, clock: Clock): VerifiedClaims | undefined {
  // Canonical like the other parts (the signature alone would already refuse a payload re-spelled by
  // anyone without the key), and a JSON object: `null`, `[]` or `1`, however well signed, is no token.
  const bytes = decodeCanonicalBase64url(payload);
  if (!bytes) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const claims = attributesOf(parsed);
  if (!claims) return undefined;
  const { iss, aud, sub, jti, agency_id, iat, exp, nbf, auth_time } = claims;
  const now = Math.floor(clock.now() / 1000);
  const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
  const valid =
    iss === settings.issuer &&
    aud === settings.audience &&
    text(sub) &&
    text(jti) &&
    text(agency_id) &&
    Number.isSafeInteger(iat) &&
    Number.isSafeInteger(exp) &&
    (nbf === undefined || (typeof nbf === 'number' && nbf <= now)) &&
    (exp as number) > now &&
    // Tokens the service never issues: signed "in the future", or living longer than a session.
    (iat as number) <= now + CLOCK_SKEW_SECONDS &&
    (exp as number) - (iat as number) <= SESSION_TTL_SECONDS;
  // A token issued before tokens carried their sign-in time was signed in when it was issued.
  const signedInAt = auth_time === undefined ? iat : auth_time;
  const withinSignIn =
    Number.isSafeInteger(signedInAt) &&
    (signedInAt as number) <= (iat as number) &&
    (exp as number) - (signedInAt as number) <= SIGN_IN_MAX_SECONDS;
  return valid && withinSignIn
    ? {
        agentId: sub,
        agencyId: agency_id,
        tokenId: jti,
        issuedAt: iat as number,
        expiresAt: exp as number,
        signedInAt: signedInAt as number,
      }
    : undefined;
}
