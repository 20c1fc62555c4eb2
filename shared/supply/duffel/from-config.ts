import { ConfigError } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { readSecretString, type SdkCore } from '../../secret-value.ts';
import type { RemoteSupplier } from '../port.ts';
import type { SupplierConfig } from '../supplier-config.ts';
import { duffelSupplier } from './adapter.ts';

/**
 * Reads Duffel's token once per cold start: from Secrets Manager deployed (through the DynamoDB
 * client's SDK core, as the signing key is read), from the environment locally.
 */
async function readToken(config: SupplierConfig, aws: SdkCore): Promise<string> {
  if (config.DUFFEL_ACCESS_TOKEN) return config.DUFFEL_ACCESS_TOKEN.trim();
  const secretId = config.DUFFEL_TOKEN_SECRET_ID ?? '';
  const secret = await readSecretString(aws, secretId).catch((error: Error) => {
    throw new ConfigError(`cannot read the Duffel token secret: ${error.message}`);
  });
  if (!secret?.trim()) throw new ConfigError('the Duffel token secret has no string value');
  return secret.trim();
}

/**
 * The Duffel supplier for this configuration. A `duffel_live_` token sells real tickets from the
 * operator's balance: it is refused unless the stage says it sells live (DUFFEL_LIVE=true); a token of
 * neither kind is refused too. The messages name the rule, never the token.
 */
export async function createDuffelSupplier(
  ctx: Pick<AppContext, 'keys' | 'clock' | 'log' | 'db'>,
  config: SupplierConfig,
): Promise<RemoteSupplier> {
  const token = await readToken(config, ctx.db.config);
  const live = token.startsWith('duffel_live_');
  if (!live && !token.startsWith('duffel_test_')) {
    throw new ConfigError('the Duffel token must be a duffel_test_ or duffel_live_ access token');
  }
  if (live && config.DUFFEL_LIVE !== 'true') {
    throw new ConfigError('a duffel_live_ token is refused: this stage does not sell live (DUFFEL_LIVE)');
  }
  return duffelSupplier({
    keys: ctx.keys,
    clock: ctx.clock,
    log: ctx.log,
    duffel: {
      baseUrl: config.DUFFEL_API_URL,
      token,
      timeoutMs: config.DUFFEL_TIMEOUT_MS,
      orderTimeoutMs: config.DUFFEL_ORDER_TIMEOUT_MS,
      maxTries: 2,
    },
  });
}
