import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock.ts';
import { keys, ttlFromMillis } from '../db/table.ts';
import type { Session } from '../http/api-event.ts';
import { UnauthorizedError } from '../http/errors.ts';

/** Session lifetime in seconds (API.md §3.2). */
export const SESSION_TTL_SECONDS = 3600;

/** The one algorithm tokens are signed with and the only one accepted when verifying. */
const ALGORITHM = 'HS256';

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
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
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
const verified = new WeakMap<TokenSettings, Map<string, Session>>();
const VERIFIED_LIMIT = 1000;

/**
 * Verifies signature (HS256 only), `iss`, `aud` and `exp`, then checks the `jti` against revocations
 * with one consistent read, so a logout takes effect on the very next request.
 * A token already verified in this warm container skips the signature check (the token string itself
 * is the cache key, so nothing unsigned can hit it); expiry and revocation are checked every time.
 * Every failure is the same 401: the client learns nothing about why.
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
  let session = cache.get(token);
  if (session && session.expiresAt * 1000 <= settings.clock.now()) {
    cache.delete(token);
    throw new UnauthorizedError();
  }
  if (!session) {
    session = await verifySignature(token, settings);
    cache.set(token, session);
    if (cache.size > VERIFIED_LIMIT) cache.delete(cache.keys().next().value ?? '');
  }
  const revoked = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: keys.revokedToken(session.tokenId),
      ConsistentRead: true,
      ProjectionExpression: 'pk',
    }),
  );
  if (revoked.Item) throw new UnauthorizedError();
  return session;
}

async function verifySignature(token: string, settings: TokenSettings): Promise<Session> {
  try {
    const { payload } = await jwtVerify(token, settings.key, {
      algorithms: [ALGORITHM],
      issuer: settings.issuer,
      audience: settings.audience,
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      currentDate: new Date(settings.clock.now()),
    });
    if (typeof payload.agency_id !== 'string' || !payload.sub || !payload.jti || payload.exp === undefined) {
      throw new UnauthorizedError();
    }
    return {
      agentId: payload.sub,
      agencyId: payload.agency_id,
      tokenId: payload.jti,
      expiresAt: payload.exp,
    };
  } catch {
    throw new UnauthorizedError();
  }
}

/** Revokes a session until it would have expired anyway (DynamoDB TTL then removes the record). */
export async function revokeSessionToken(session: Session, store: TokenStore): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { ...keys.revokedToken(session.tokenId), ttl: ttlFromMillis(session.expiresAt * 1000) },
    }),
  );
}
