import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod/mini';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { RateLimitedError, ServiceUnavailableError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { CodeSender } from '../notify/code-sender.ts';
import { spendAgencyCode } from './agency-code-budget-item.ts';
import { IDENTIFIER_FORMS, identifierOrIssue } from './identifier.ts';
import { clearChallenge, replaceChallenge } from './otp-challenge-item.ts';
import { generateCode, hashCode, OTP_TTL_SECONDS, RESEND_AFTER_SECONDS } from './otp-code.ts';
import '../zod-locale.ts';

export const SendOtpRequest = z.pipe(
  z
    .object({
      identifier: z.string().check(
        z.meta({
          description:
            'E-mail address (trimmed, lower-cased, at most 254 characters) when type is EMAIL; E.164 phone number (+ then 8-15 digits) when type is PHONE or SMS',
          examples: ['agent@example.com', '+447400123456'],
        }),
      ),
      type: z
        .enum(['EMAIL', 'PHONE', 'SMS'])
        .check(z.meta({ description: 'How to send the code; SMS is an alias of PHONE' })),
    })
    .check(
      z.meta({
        // The type decides the identifier's form: say so in the schema, not only in prose.
        oneOf: [
          { properties: { type: { const: 'EMAIL' }, identifier: IDENTIFIER_FORMS.EMAIL } },
          { properties: { type: { enum: ['PHONE', 'SMS'] }, identifier: IDENTIFIER_FORMS.PHONE } },
        ],
      }),
    ),
  z.transform((body, ctx) =>
    identifierOrIssue(body.identifier, body.type === 'SMS' ? 'PHONE' : body.type, ctx),
  ),
);

interface SendOtpDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly otp: Uint8Array };
  readonly sender: CodeSender;
  readonly log: Logger;
  /** The answer never comes sooner than this, registered identifier or not. */
  readonly minResponseMs: number;
  /** How many codes one agency's agents may be sent in a clock hour (docs/API.md §3.4). */
  readonly agencyCodesPerHour: number;
}

/** What send-otp promises, registered identifier or not: how long a code lives, when to ask again. */
interface CodeSent {
  readonly expiresIn: number;
  readonly resendAfter: number;
}

/**
 * `POST /api/auth/send-otp`. Registered and unknown identifiers take the same path (one conditional
 * write: throttle, fresh challenge, and the agent snapshot back) and answer alike after the same
 * minimum time; only a registered, active agent's code is delivered, and only while its agency's
 * hourly budget of codes lasts (a second conditional write; when spent, the throttle's 429). An unknown identifier gets a
 * decoy challenge that nobody knows the code of, so verify-otp behaves identically for it too.
 */
export function sendOtp(deps: SendOtpDeps) {
  return async (input: z.output<typeof SendOtpRequest>): Promise<CodeSent> => {
    const started = performance.now();
    try {
      await issueChallenge(input, deps);
      return { expiresIn: OTP_TTL_SECONDS, resendAfter: RESEND_AFTER_SECONDS };
    } finally {
      const elapsed = performance.now() - started;
      if (elapsed < deps.minResponseMs) await sleep(deps.minResponseMs - elapsed);
      else deps.log.warn('send-otp exceeded its minimum response time', { elapsed_ms: Math.round(elapsed) });
    }
  };
}

async function issueChallenge(input: { identifier: string; type: 'EMAIL' | 'PHONE' }, deps: SendOtpDeps) {
  const { identifier } = input;
  const challengeId = randomBytes(12).toString('base64url');
  const code = generateCode();
  const codeHash = hashCode(deps.keys.otp, { identifier, challengeId }, code);

  const now = deps.clock.now();
  const replaced = await replaceChallenge(deps, identifier, { challengeId, codeHash }, now);
  if (!replaced.ok) throw new RateLimitedError(replaced.retryAfterSeconds);
  const { agent } = replaced;
  if (agent?.active !== true) return;
  const budget = await spendAgencyCode(deps, agent.agency_id, now, deps.agencyCodesPerHour);
  if (!budget.ok) {
    // Counted by the stack's "agency code budget" alarm. The answer is the throttle's own 429.
    deps.log.warn('agency code budget spent', { agency_id: agent.agency_id });
    await voidCode(deps, identifier, challengeId);
    throw new RateLimitedError(budget.retryAfterSeconds);
  }

  try {
    const channel = input.type === 'EMAIL' ? 'EMAIL' : 'SMS';
    await deps.sender.send({ channel, to: identifier, code, validMinutes: OTP_TTL_SECONDS / 60 });
    // Counted by the stack's "code sends" alarm: SES and SNS volume is where abuse costs money.
    deps.log.info('code sent', { channel });
  } catch (error) {
    deps.log.warn('code delivery failed', { error_name: (error as Error)?.name });
    await voidCode(deps, identifier, challengeId);
    throw new ServiceUnavailableError(RESEND_AFTER_SECONDS);
  }
}

/**
 * Nobody received this code: void it (unless a newer send replaced it). The send slot stays spent, so
 * a failing provider or a spent budget cannot become a way to multiply sends.
 */
async function voidCode(deps: SendOtpDeps, identifier: string, challengeId: string): Promise<void> {
  await clearChallenge(deps, identifier, challengeId).catch((clearError: Error) =>
    deps.log.warn('voiding an undelivered code failed', { error_name: clearError?.name }),
  );
}
