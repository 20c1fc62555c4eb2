import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTBOX_FILE } from '#shared/notify/outbox-sender.ts';
import { completeJsonLines } from './json-lines.ts';

export interface OutboxEntry {
  channel: 'EMAIL' | 'SMS';
  to: string;
  code: string;
  sent_at: string;
}

/** Every code the local outbox has "sent" in `dataDir` (the test file's own by default). */
export async function readOutbox(dataDir = process.env.DATA_DIR ?? ''): Promise<OutboxEntry[]> {
  const text = await readFile(join(dataDir, OUTBOX_FILE), 'utf8').catch(() => '');
  return completeJsonLines<OutboxEntry>(text);
}

/** The most recent code sent to `identifier`. */
export async function lastCodeFor(identifier: string, dataDir?: string): Promise<string> {
  const entry = (await readOutbox(dataDir)).filter((e) => e.to === identifier).at(-1);
  if (!entry) throw new Error(`no code was sent to ${identifier}`);
  return entry.code;
}
