import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { agentsCli, type LocalServer } from './local-server.ts';

/** Where the shared server's output goes, in its DATA_DIR (test/e2e/global-setup.ts). */
export const SHARED_SERVER_OUTPUT = 'npm-start-output.log';

/** The e2e run's one `npm start` with the default settings (test/e2e/global-setup.ts). */
export type SharedServer = Pick<LocalServer, 'url' | 'dataDir' | 'output'>;

/**
 * The shared server, for an e2e file that needs only the default settings. Other files use it at the
 * same time: a file signs in agents of an agency of its own (ownAdmin), never the demo agent, whose
 * codes are throttled per identifier (demo.test.ts alone signs it in here), and asserts nothing about
 * the whole database. Its output is every file's requests so far.
 */
export function sharedServer(): SharedServer {
  const dataDir = inject('e2eServerDataDir');
  return {
    url: inject('e2eServerUrl'),
    dataDir,
    output: () => readFileSync(join(dataDir, SHARED_SERVER_OUTPUT), 'utf8'),
  };
}

/**
 * Registers, with the agents CLI, an ADMIN `admin@<agency>.example.com` of a new agency `<agency>` on
 * `server`: a file's own agent and agency, so that no other file's sign-ins, agents or webhooks meet
 * its own. Fails with the CLI's output when it refuses.
 */
export async function ownAdmin(server: SharedServer, agency: string) {
  const identifier = `admin@${agency}.example.com`;
  const added = await agentsCli(
    server.dataDir,
    'add',
    identifier,
    '--name',
    'Admin',
    '--agency',
    agency,
    '--role',
    'ADMIN',
  );
  if (added.code !== 0) throw new Error(`agents add ${identifier} exited ${added.code}: ${added.stderr}`);
  return { identifier, agencyId: agency };
}
