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

/** SES's throttling error names (a sending rate exceeded): worth trying again later. */
const THROTTLES = new Set(['Throttling', 'ThrottlingException', 'TooManyRequestsException']);

/**
 * Whether an SES error is a refusal for good: a client fault that is not a throttle. Server faults,
 * throttles and errors with no answer (the network) are worth trying again.
 */
function isPermanentSesRefusal(error: unknown): boolean {
  const { name, $fault } = (error ?? {}) as { name?: string; $fault?: string };
  return $fault === 'client' && !THROTTLES.has(name ?? '');
}

/**
 * SES `SendEmail` from the stage's sender, text and HTML (the same identity the sign-in codes use); a
 * refusal for good is a {@link NoticeRefusedError}, anything else (a throttle) is thrown as it came.
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
        if (isPermanentSesRefusal(error)) throw new NoticeRefusedError((error as Error).name);
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
