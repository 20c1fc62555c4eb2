import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { Answer } from './api.ts';
import { assertMatchesContract, openapi } from './contract.ts';

export interface LocalServer {
  readonly url: string;
  readonly dataDir: string;
  readonly process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Ctrl-C, as a developer would; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export const newDataDir = () => mkdtempSync(join(tmpdir(), 'flight-booking-e2e-'));

/** A local process that prints "listening on <url>" once it serves: `npm start`, the Duffel stand-in. */
export interface Listening {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Ctrl-C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * How long a started process may take to print the URL it listens on. `npm start` answers in 2–4 s on
 * a quiet 2-core machine and took up to 25 s beside a full test run and busy loops (load 20); its
 * DynamoDB Local alone may take two minutes when the first one is stuck (infra/local/dynamodb-local.ts).
 * The browser and e2e hooks that start one allow more than this (vitest.config.ts), so a start that
 * never comes fails with its own output rather than a bare hook timeout.
 */
const LISTEN_WITHIN_MS = 150_000;

/**
 * Runs `node <args>` with `env` added, and resolves once it prints the URL it listens on. One that
 * exits first, or has not printed it within `withinMs`, fails with everything it printed; it is stopped
 * (Ctrl-C, then killed) before the error is thrown.
 */
export async function startListening(
  args: readonly string[],
  env: Record<string, string> = {},
  withinMs = LISTEN_WITHIN_MS,
): Promise<Listening> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    // Unref'd: once the process has exited, the deadline must not keep this one alive for its 10 s
    // (vitest's main process waited that long at the end of every run for its servers' stops).
    const deadline = sleep(10_000, 'running' as const, { ref: false });
    const code = await Promise.race([exited, deadline]);
    if (code !== 'running') return code;
    child.kill('SIGKILL');
    return exited;
  };
  const url = await listeningUrl(() => output, exited, withinMs).catch(async (error: Error) => {
    await stop();
    throw new Error(`${args[0]} ${error.message}:\n${output}`);
  });
  return { url, process: child, output: () => output, stop };
}

/** The URL once `output()` names it; rejects when the process exits first or at the deadline. */
function listeningUrl(
  output: () => string,
  exited: Promise<number | null>,
  withinMs: number,
): Promise<string> {
  const deadline = Date.now() + withinMs;
  return new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`printed no "listening on" within ${withinMs / 1000} s`));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`exited (${code}) before listening`));
    });
  });
}

/** Starts `node infra/local/start.ts` exactly as `npm start` does, on a random port; `env` adds to its environment. */
export async function startLocalServer(
  dataDir = newDataDir(),
  env: Record<string, string> = {},
): Promise<LocalServer> {
  const server = await startListening(['infra/local/start.ts'], {
    PORT: '0',
    DATA_DIR: dataDir,
    OTP_SEND_MIN_MS: '20',
    ...env,
  });
  return { ...server, dataDir };
}

/** Whether process `pid` still exists (a process this one started and reaped does not). */
export { alive } from '../../infra/local/dynamodb-local-classes.ts';

const run = promisify(execFile);

/**
 * `npm run agents -- …` against `dataDir` (or, with `env.TABLE_NAME`, against that table as in AWS);
 * resolves with exit code and output.
 */
export async function agentsCli(dataDir: string, ...args: string[]) {
  return agentsCliWithEnv({ DATA_DIR: dataDir, TABLE_NAME: '' }, ...args);
}

export async function agentsCliWithEnv(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['infra/cli/agents.ts', ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * POSTs JSON (or a raw body) and parses the answer. Every answer from a documented route is checked
 * against the OpenAPI document: its status must be listed and its body must match.
 */
export async function post(url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
  });
  const parsed = (await response.json()) as Answer['body'];
  const path = new URL(url).pathname;
  if (openapi.paths[path]) assertMatchesContract(path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed };
}
