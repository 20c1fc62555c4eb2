import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { isoSeconds } from '../clock.ts';
import { type Notice, NoticeRefusedError } from './notice.ts';

/** Where traveller notices go: SES when deployed, `<DATA_DIR>/notices.jsonl` locally. */
export interface NoticeSender {
  send(notice: Notice): Promise<void>;
}

export const NOTICES_FILE = 'notices.jsonl';

/**
 * Whether SES refused the notice's address itself, for good: sending the same notice again cannot
 * help. The one parameter of a notice that comes from outside is the traveller's address, so an
 * `InvalidParameterValue` is a malformed one, and a `MessageRejected` that says `Illegal address` is
 * one SES will not send to. Every other error is the stage's or SES's and passes (docs/decisions.md,
 * *Which SES errors end a notice*): a sender or configuration set SES does not know, access denied,
 * the sandbox's `Email address is not verified` (a `MessageRejected` too), paused sending, a
 * throttle, a server fault, no answer at all.
 */
function isRefusedAddress(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  if (name === 'InvalidParameterValue') return true;
  return name === 'MessageRejected' && /\billegal address\b/i.test(message ?? '');
}

/**
 * SES `SendEmail` from the stage's sender, text and HTML (the same identity the sign-in codes use); a
 * refused address is a {@link NoticeRefusedError}, anything else is thrown as it came, to be tried again.
 */
export function sesNoticeSender(
  client: SESClient,
  options: { from: string; configurationSet?: string },
): NoticeSender {
  return {
    async send(notice) {
      const command = new SendEmailCommand({
        Source: options.from,
        Destination: { ToAddresses: [notice.to] },
        Message: {
          Subject: { Data: notice.subject, Charset: 'UTF-8' },
          Body: {
            Text: { Data: notice.text, Charset: 'UTF-8' },
            Html: { Data: notice.html, Charset: 'UTF-8' },
          },
        },
        ...(options.configurationSet && { ConfigurationSetName: options.configurationSet }),
      });
      try {
        await client.send(command);
      } catch (error) {
        if (isRefusedAddress(error)) throw new NoticeRefusedError((error as Error).name);
        throw error;
      }
    },
  };
}

/**
 * Local delivery (docs/API.md §6): one JSON line per notice in `<dataDir>/notices.jsonl`, never in the
 * code outbox.
 */
export function fileNoticeSender(dataDir: string, clock: { now(): number } = Date): NoticeSender {
  const file = join(dataDir, NOTICES_FILE);
  return {
    async send(notice) {
      const line = {
        event_id: notice.eventId,
        type: notice.type,
        to: notice.to,
        booking_id: notice.bookingId,
        pnr: notice.pnr,
        subject: notice.subject,
        text: notice.text,
        sent_at: isoSeconds(clock.now()),
      };
      await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    },
  };
}
