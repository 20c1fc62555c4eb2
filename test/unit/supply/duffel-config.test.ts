import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '#shared/clock.ts';
import { ConfigError } from '#shared/config.ts';
import { createDocumentClient } from '#shared/db/client.ts';
import { createLogger } from '#shared/log.ts';
import { createDuffelSupplier } from '#shared/supply/duffel/from-config.ts';
import { readSupplierConfig } from '#shared/supply/supplier-config.ts';
import {
  errorAnswer,
  secretAnswer,
  startSecretsManagerStandIn,
} from '#test/helpers/secrets-manager-stand-in.ts';
import { signingKeysOf } from '#test/helpers/signing-keys.ts';

const LIVE = 'duffel_live_Qw8zR2mT5vX1yN4pL7kJ';
const TEST = 'duffel_test_Qw8zR2mT5vX1yN4pL7kJ';
const context = {
  keys: await signingKeysOf('k'.repeat(43)),
  clock: systemClock(),
  log: createLogger('error'),
  db: createDocumentClient('http://127.0.0.1:9', 'eu-west-2'),
};

describe('supplier configuration', () => {
  it('sells from the built-in network by default, and from Duffel only with a token', () => {
    expect(readSupplierConfig({}).SUPPLIER).toBe('network');
    expect(readSupplierConfig({ SUPPLIER: 'duffel', DUFFEL_ACCESS_TOKEN: TEST })).toMatchObject({
      SUPPLIER: 'duffel',
      DUFFEL_API_URL: 'https://api.duffel.com',
      DUFFEL_LIVE: 'false',
    });
    expect(() => readSupplierConfig({ SUPPLIER: 'duffel' })).toThrow(/DUFFEL_ACCESS_TOKEN/);
    expect(() => readSupplierConfig({ SUPPLIER: 'amadeus' })).toThrow(ConfigError);
  });

  it('reads the token from Secrets Manager when deployed, never from the environment', () => {
    const deployed = { SUPPLIER: 'duffel', AWS_LAMBDA_FUNCTION_NAME: 'booking-create' };

    expect(() => readSupplierConfig({ ...deployed, DUFFEL_ACCESS_TOKEN: TEST })).toThrow(/Secrets Manager/);
    expect(readSupplierConfig({ ...deployed, DUFFEL_TOKEN_SECRET_ID: 'duffel-token' }).SUPPLIER).toBe(
      'duffel',
    );
  });

  it('refuses a live token unless the stage sells live, without ever naming the token', async () => {
    const refused = createDuffelSupplier(
      context,
      readSupplierConfig({ SUPPLIER: 'duffel', DUFFEL_ACCESS_TOKEN: LIVE }),
    );
    const notDuffel = createDuffelSupplier(
      context,
      readSupplierConfig({ SUPPLIER: 'duffel', DUFFEL_ACCESS_TOKEN: 'sk_live_abcdef' }),
    );
    const live = await createDuffelSupplier(
      context,
      readSupplierConfig({ SUPPLIER: 'duffel', DUFFEL_ACCESS_TOKEN: LIVE, DUFFEL_LIVE: 'true' }),
    );

    await expect(refused).rejects.toThrow(/duffel_live_ token is refused/);
    await expect(refused).rejects.not.toThrow(LIVE);
    await expect(notDuffel).rejects.toThrow(/duffel_test_ or duffel_live_/);
    await expect(notDuffel).rejects.not.toThrow('sk_live_abcdef');
    expect(live.name).toBe('duffel');
    expect(JSON.stringify(live)).not.toContain(LIVE);
  });

  describe('the token from Secrets Manager', () => {
    const deployed = { SUPPLIER: 'duffel', DUFFEL_TOKEN_SECRET_ID: 'duffel-token' };
    afterEach(() => vi.unstubAllEnvs());

    it('is read with one signed GetSecretValue through the DynamoDB client core; a refusal names no token', async () => {
      const server = await startSecretsManagerStandIn('local', [
        secretAnswer('duffel-token', `${TEST}\n`),
        errorAnswer(400, 'AccessDeniedException', 'not authorized'),
      ]);
      vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', server.url);

      const supplier = await createDuffelSupplier(context, readSupplierConfig(deployed));
      const refused = await createDuffelSupplier(context, readSupplierConfig(deployed)).catch(
        (e: Error) => e,
      );
      await server.close();

      expect(supplier.name).toBe('duffel');
      expect(
        server.requests.map((request) => [JSON.parse(request.body).SecretId, request.signatureValid]),
      ).toEqual([
        ['duffel-token', true],
        ['duffel-token', true],
      ]);
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as Error).message).toBe(
        'cannot read the Duffel token secret: Secrets Manager answered 400 AccessDeniedException: not authorized',
      );
    });
  });
});
