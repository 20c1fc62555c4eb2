import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiEvent, invoke } from '#test/helpers/api.ts';
import { handler as localSession } from '#test/helpers/routes/auth/session.ts';
import { signIn } from '#test/helpers/session.ts';
import { testContext } from '#test/helpers/test-context.ts';
import { createHandler } from '../../../functions/auth/session.ts';
import { handler as openapi } from '../../../functions/docs/openapi.ts';

/**
 * HSTS on every answer a deployed function gives (docs/decisions.md, "HTTP"): Lambda sets
 * AWS_LAMBDA_FUNCTION_NAME, and API Gateway answers over HTTPS only. `npm start` is plain HTTP, and
 * sends none.
 */
const HSTS = 'max-age=63072000; includeSubDomains';
const deployedSession = createHandler({
  ...testContext,
  config: { ...testContext.config, AWS_LAMBDA_FUNCTION_NAME: 'flight-booking-dev-session' },
});
const path = '/api/auth/session';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('Strict-Transport-Security', () => {
  it('is on every answer of a deployed route, success and error alike', async () => {
    const { headers } = await signIn();

    const answers = [
      await invoke(deployedSession, { path, body: {}, headers }),
      await invoke(deployedSession, { path, body: {} }),
      await invoke(deployedSession, {
        path,
        rawBody: '{',
        headers: { ...headers, 'Content-Type': 'application/json' },
      }),
    ];

    expect(answers.map((a) => a.status)).toEqual([200, 401, 400]);
    for (const answer of answers) expect(answer.headers['Strict-Transport-Security']).toBe(HSTS);
  });

  it('is on none of npm start’s answers, which go out over plain HTTP', async () => {
    const { headers } = await signIn();

    const answers = [
      await invoke(localSession, { path, body: {}, headers }),
      await invoke(localSession, { path, body: {} }),
    ];

    expect(answers.map((a) => a.status)).toEqual([200, 401]);
    for (const answer of answers) expect(answer.headers['Strict-Transport-Security']).toBeUndefined();
  });

  it('is on the OpenAPI document deployed, and not from npm start (the same handler)', async () => {
    const local = await openapi(apiEvent({ method: 'GET', path: '/openapi.json' }));
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'flight-booking-dev-openapi');
    const deployed = await openapi(apiEvent({ method: 'GET', path: '/openapi.json' }));

    expect(local.headers?.['Strict-Transport-Security']).toBeUndefined();
    expect(deployed.headers?.['Strict-Transport-Security']).toBe(HSTS);
  });
});
