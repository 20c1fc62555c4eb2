import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TokenSettings } from './auth/session-token.ts';
import { loadSigningKeys, type SigningKeys } from './auth/signing-keys.ts';
import { type Clock, systemClock } from './clock.ts';
import { type CoreConfig, readCoreConfig } from './config.ts';
import { createDocumentClient } from './db/client.ts';
import { createLogger, type Logger } from './log.ts';

/** What every function shares, built once per cold start. */
export interface AppContext {
  readonly config: CoreConfig;
  readonly db: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly clock: Clock;
  readonly keys: SigningKeys;
  /** What session tokens are signed and verified with: the one settings object of the process. */
  readonly tokens: TokenSettings;
  readonly log: Logger;
}

async function createAppContext(config: CoreConfig): Promise<AppContext> {
  const db = createDocumentClient(config.DYNAMODB_ENDPOINT, config.AWS_REGION);
  // The key is read through the DynamoDB client's SDK core: no second client (shared/secret-value.ts).
  const keys = await loadSigningKeys(
    { secretId: config.SIGNING_KEY_SECRET_ID, file: config.SIGNING_KEY_FILE },
    db.config,
  );
  return {
    config,
    db,
    tableName: config.TABLE_NAME,
    clock: systemClock(),
    keys,
    tokens: { key: keys.token, issuer: config.TOKEN_ISSUER, audience: config.TOKEN_AUDIENCE },
    log: createLogger(config.LOG_LEVEL, { stage: config.STAGE }),
  };
}

/**
 * The process-wide context. Top-level await: configuration and the signing key are loaded during the
 * Lambda init phase, and a missing one fails start-up with a clear message instead of the first request.
 */
export const context: AppContext = await createAppContext(readCoreConfig());
