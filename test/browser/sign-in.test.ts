import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  newAgency,
  newPage,
  readableByScript,
  shared,
  signInThroughForm,
} from './harness.ts';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('browser: the console page and sign-in', () => {
  it('serves / with the strict CSP and shows the sign-in form by its accessible names', async () => {
    await using watched = await newPage();
    const { page, errors } = watched;
    // No session cookie: the page says so, and the form waits for no session check (the budget).
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));

    const response = await page.goto(`${shared().url}/`);

    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toBe(CSP);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-cache');
    await page.getByLabel('E-mail or phone').waitFor();
    expect(await page.getByRole('textbox', { name: 'E-mail or phone' }).isEditable()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send code' }).count()).toBe(1);
    await expectAccessible(page, 'sign-in');
    expect(asked.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('signs in with the code from the outbox and cookie_only, lands on search, and no token is readable by the page', async () => {
    const server = shared();
    const admin = await newAgency(server);
    await using watched = await newPage();
    const { page, context, errors } = watched;
    await page.goto(`${server.url}/sign-in`);
    const verifying = page.waitForRequest((request) => request.url().endsWith('/api/auth/verify-otp'));
    const verified = page.waitForResponse((response) => response.url().endsWith('/api/auth/verify-otp'));

    await signInThroughForm(page, server, admin.identifier);

    expect((await verifying).postDataJSON()).toMatchObject({
      identifier: admin.identifier,
      cookie_only: true,
    });
    // The answer the page's script received holds no token at all: the session is the cookie alone.
    const answer = await (await verified).json();
    expect(answer.data.agent).toMatchObject({ identifier: admin.identifier });
    expect(Object.keys(answer.data)).not.toContain('verification_token');
    expect(JSON.stringify(answer)).not.toMatch(/eyJ[\w-]+\./);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    // The token the Set-Cookie carried, as the browser keeps it (HttpOnly: the page cannot read it).
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-session');
    expect(session?.httpOnly).toBe(true);
    const [, , signature] = (session?.value ?? '').split('.');
    expect(signature).toMatch(/^[\w-]{20,}$/);
    const readable = await readableByScript(page);
    expect(readable).not.toContain(signature);
    expect(readable).not.toContain(admin.token);
    expect(readable).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    await expectAccessible(page, 'code step and search');
    expect(errors).toEqual([]);
  });
});
