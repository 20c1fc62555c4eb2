import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isoSeconds } from '../clock.ts';
import type { CodeSender } from './code-sender.ts';

export const OUTBOX_FILE = 'outbox.jsonl';

/**
 * Local delivery (docs/API.md §6): nothing leaves the machine. Each code is printed to the console and
 * appended as one JSON line to `<dataDir>/outbox.jsonl`, where scripts and tests read it.
 */
export function outboxCodeSender(dataDir: string, print: (line: string) => void = console.log): CodeSender {
  const file = join(dataDir, OUTBOX_FILE);
  return {
    async send({ channel, to, code }) {
      const entry = { channel, to, code, sent_at: isoSeconds(Date.now()) };
      await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      print(`[outbox] ${channel} to ${to}: sign-in code ${code}`);
    },
  };
}
