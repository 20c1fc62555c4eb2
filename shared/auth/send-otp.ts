import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod/mini';
import type { Clock } from '../clock.ts';
import type { TableHandle } from '../db/client.ts';
import { RateLimitedError, ServiceUnavailableError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { CodeSender } from '../notify/code-sender.ts';
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
          examples: ['agent@example.com', '+447700900123'],
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

export interface SendOtpDeps extends TableHandle {
  readonly clock: Clock;
  readonly keys: { readonly otp: Uint8Array };
  readonly sender: CodeSender;
  readonly log: Logger;
  /** The answer never comes sooner than this, registered identifier or not. */
  readonly minResponseMs: number;
}

/** What send-otp promises, registered identifier or not: how long a code lives, when to ask again. */
export interface CodeSent {
  readonly expiresIn: number;
  readonly resendAfter: number;
}

/**
 * `POST /api/auth/send-otp`. Registered and unknown identifiers take the same path (one conditional
 * write: throttle, fresh challenge, and the agent snapshot back) and answer alike after the same
 * minimum time; only a registered, active agent's code is delivered. An unknown identifier gets a
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

  const replaced = await replaceChallenge(deps, identifier, { challengeId, codeHash }, deps.clock.now());
  if (!replaced.ok) throw new RateLimitedError(replaced.retryAfterSeconds);
  if (replaced.agent?.active !== true) return;

  try {
    const channel = input.type === 'EMAIL' ? 'EMAIL' : 'SMS';
    await deps.sender.send({ channel, to: identifier, code, validMinutes: OTP_TTL_SECONDS / 60 });
    // Counted by the stack's "code sends" alarm: SES and SNS volume is where abuse costs money.
    deps.log.info('code sent', { channel });
  } catch (error) {
    deps.log.warn('code delivery failed', { error_name: (error as Error)?.name });
    // Nobody received this code: void it (unless a newer send replaced it). The send slot stays
    // spent, so a failing provider cannot become a way to multiply sends.
    await clearChallenge(deps, identifier, challengeId).catch((clearError: Error) =>
      deps.log.warn('voiding an undelivered code failed', { error_name: clearError?.name }),
    );
    throw new ServiceUnavailableError(RESEND_AFTER_SECONDS);
  }
}
