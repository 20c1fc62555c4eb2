/**
 * A route's cold-start floor (P1, memory sizing): a bundle holding only the DynamoDB document client,
 * built as every function's (shared/db/client.ts), reading the signing key as every function does at
 * init (shared/auth/signing-keys.ts, whatever it does at the time of the run), and making on its first
 * invocation the DynamoDB calls its route makes (the event's `floorCalls`, from cold-events.ts).
 * setup.ts bundles one per set of commands, importing only those commands.
 */

import { loadSigningKeys } from '../../shared/auth/signing-keys.ts';
import { createDocumentClient } from '../../shared/db/client.ts';

/** One DynamoDB call: lib-dynamodb's command name (`GetCommand`, …) and its input. */
export interface FloorCall {
  readonly command: string;
  readonly input: Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: any lib-dynamodb command class
type CommandClass = new (input: any) => any;

const db = createDocumentClient(process.env.DYNAMODB_ENDPOINT, process.env.AWS_REGION);
// As shared/context.ts reads it: once, at init, through the DynamoDB client's SDK core.
await loadSigningKeys(
  { secretId: process.env.SIGNING_KEY_SECRET_ID, file: process.env.SIGNING_KEY_FILE },
  db.config,
);

/**
 * The floor's handler, able to send `commands` only; then `after`, if given (send-otp's reference: the
 * floor plus the SES or SNS message a code costs).
 */
export function floorHandler(commands: Record<string, CommandClass>, after?: () => Promise<unknown>) {
  return async (event: { floorCalls: readonly FloorCall[] }) => {
    for (const call of event.floorCalls) {
      const Command = commands[call.command];
      if (!Command) throw new Error(`the floor cannot send ${call.command}`);
      await db.send(new Command(call.input));
    }
    await after?.();
    return { statusCode: 200, body: '{}' };
  };
}
