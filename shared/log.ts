/**
 * Structured JSON logging, one line per event. Callers pass only what is safe to keep: no token,
 * code, key, table name or identifier is handed to it. Tests check part of this: after every
 * integration file no log line may carry a token, a sent code, the signing key or the table name
 * (test/helpers/integration-setup.ts), and the e2e suite checks the dev server's log for 6-digit
 * numbers, tokens and the demo agent's identifier (test/e2e/walkthrough.test.ts). No test scans for
 * identifiers in general.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * Fields of the request in progress (request ids, cold start, trace id), set by the HTTP envelope for
 * the rest of the request's async work, so every line written while handling it carries them — also
 * in the dev server, where requests run side by side in one process.
 */
export const requestFields = new AsyncLocalStorage<LogFields>();

/**
 * A logger writing lines at `level` and above; `base` fields (such as the stage) are on every line, so
 * log metric filters and searches can tell stages apart.
 */
export function createLogger(level: LogLevel = 'info', base: LogFields = {}): Logger {
  const threshold = rank[level];
  const emit = (lvl: LogLevel, message: string, fields?: LogFields) => {
    if (rank[lvl] < threshold) return;
    const request = requestFields.getStore();
    // One write per line, `level` first: tests read lines off stdout (test/helpers/log-capture.ts).
    process.stdout.write(
      `${JSON.stringify({ level: lvl, time: new Date().toISOString(), ...base, ...request, message, ...fields })}\n`,
    );
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}
