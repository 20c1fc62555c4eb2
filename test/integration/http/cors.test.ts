import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#test/helpers/api.ts';

/** Functions read CORS_ALLOWED_ORIGINS at cold start, so this file sets it before importing one. */
process.env.CORS_ALLOWED_ORIGINS = 'https://agents.example.com, https://staging.example.com';
let logout: typeof import('#test/helpers/routes/auth/logout.ts')['handler'];

beforeAll(async () => {
  logout = (await import('#test/helpers/routes/auth/logout.ts')).handler;
});

describe('CORS', () => {
  it('allows a configured origin, with credentials, on error answers too', async () => {
    const answer = await invoke(logout, { rawBody: null, headers: { Origin: 'https://agents.example.com' } });

    expect(answer.status).toBe(401);
    expect(answer.headers).toMatchObject({
      'Access-Control-Allow-Origin': 'https://agents.example.com',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After, Idempotent-Replayed',
      Vary: 'Origin',
    });
  });

  it('says nothing to other origins', async () => {
    const answer = await invoke(logout, { rawBody: null, headers: { Origin: 'https://evil.example.net' } });

    expect(answer.headers['Access-Control-Allow-Origin']).toBeUndefined();
  });
});
