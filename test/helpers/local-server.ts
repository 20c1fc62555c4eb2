import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Runs `node <args>` with `env` added, and resolves once it prints the URL it listens on. */
export async function startListening(
  args: readonly string[],
  env: Record<string, string> = {},
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
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`${args[0]} exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
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
