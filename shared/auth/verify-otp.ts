import * as z from 'zod/mini';
import type { TableHandle } from '../db/client.ts';
import { InvalidCodeError, TooManyAttemptsError } from '../errors.ts';
import { IDENTIFIER_FORMS, identifierOrIssue } from './identifier.ts';
import { clearChallenge, reserveAttempt } from './otp-challenge-item.ts';
import { hashCode, hashesMatch, MAX_CODE_ATTEMPTS } from './otp-code.ts';
import type { Role } from './roles.ts';
import { readSessionState } from './session-state-item.ts';
import { issueSessionToken, SESSION_TTL_SECONDS, type TokenDeps } from './session-token.ts';
import '../zod-locale.ts';

export const VerifyOtpRequest = z.pipe(
  z.object({
    identifier: z.string().check(
      z.meta({
        description: 'The identifier the code was sent to: an e-mail address or an E.164 phone number',
        anyOf: [IDENTIFIER_FORMS.EMAIL, IDENTIFIER_FORMS.PHONE],
      }),
    ),
    code: z
      .string()
      .check(
        z.regex(/^\d{6}$/, 'must be the 6-digit code'),
        z.meta({ description: 'The 6-digit code, as a string' }),
      ),
    cookie_only: z.optional(
      z.boolean().check(
        z.meta({
          description:
            'true: the session is answered only as the HttpOnly __Host-session cookie, never in the body (no verification_token or token_type), so no page script ever holds it. Browser clients should send it.',
        }),
      ),
    ),
  }),
  z.transform((body, ctx) => {
    const { identifier } = identifierOrIssue(body.identifier, undefined, ctx);
    return { identifier, code: body.code, cookieOnly: body.cookie_only === true };
  }),
);

interface VerifyOtpDeps extends TableHandle, TokenDeps {
  readonly keys: { readonly otp: Uint8Array };
}

/** A signed-in agent: the session token, when it expires (epoch seconds), and who it speaks for. */
export interface SignedIn {
  readonly token: string;
  readonly expiresAt: number;
  readonly lifetimeSeconds: number;
  readonly agent: { id: string; name: string; agency_id: string; identifier: string; role: Role };
}

/**
 * `POST /api/auth/verify-otp`. An attempt is first reserved with a conditional increment (at most
 * MAX_CODE_ATTEMPTS can ever be reserved, however many run in parallel), then the code is compared in
 * constant time, then a right code is consumed with a write conditional on the same challenge, so at
 * most one request ever gets a token for it. Two DynamoDB calls on success (a third, one GetItem of the
 * session state, only for an agent whose snapshot was stored before it kept the role).
 */
export function verifyOtp(deps: VerifyOtpDeps) {
  return async (input: z.output<typeof VerifyOtpRequest>): Promise<SignedIn> => {
    const { identifier, code } = input;
    const reserved = await reserveAttempt(deps, identifier, deps.clock.now());
    if (!reserved.ok) throw reserved.reason === 'void' ? new TooManyAttemptsError() : new InvalidCodeError();
    const { challenge } = reserved;
    const matches = hashesMatch(
      challenge.codeHash,
      hashCode(deps.keys.otp, { identifier, challengeId: challenge.challengeId }, code),
    );
    if (!matches || challenge.agent?.active !== true) {
      throw challenge.attempts >= MAX_CODE_ATTEMPTS ? new TooManyAttemptsError() : new InvalidCodeError();
    }
    // Consumed only while the agent is still active: a deactivation after the read above wins.
    if (!(await clearChallenge(deps, identifier, challenge.challengeId, { signIn: true })))
      throw new InvalidCodeError();

    const { id, name, agency_id } = challenge.agent;
    const role = challenge.agent.role ?? (await readSessionState(deps, id))?.role ?? 'AGENT';
    const agent = { id, name, agency_id, identifier, role };
    const { token, expiresAt } = await issueSessionToken(agent, deps);
    return { token, expiresAt, lifetimeSeconds: SESSION_TTL_SECONDS, agent };
  };
}
