import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addAgent, api, newAgency, readableByScript, shared, signedInPage } from './harness.ts';
import { button, field, fillContact, fillPassenger, named, search } from './steps.ts';

const server = shared();
/** Markup that would set `window.__pwned` if any screen ever made it HTML. */
const MARKUP = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
/** The same within a name field's 35 characters. */
const SHORT_MARKUP = '<img src=x onerror=__pwned=1>';

/** Nothing ran, and no element was made from the markup. */
async function expectInert(page: Page) {
  expect(await page.evaluate('window.__pwned')).toBeUndefined();
  expect(await page.locator('img[src="x"], main b').count()).toBe(0);
}

describe.concurrent('browser: hostile text is shown as text and never run', () => {
  it('a passenger named with markup: the field error is shown, the markup never becomes HTML', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    const found = await search(page);
    await button(found.first(), 'Select').click();
    await page.waitForURL((url) => url.pathname === '/book');
    await fillPassenger(page, 1, { first: SHORT_MARKUP });
    await fillContact(page);

    await button(page, 'Book').click();
    const first = field(page.getByRole('group', { name: named('Passenger 1') }), 'First name');
    await page.locator('[aria-invalid="true"]').first().waitFor();

    expect(await first.getAttribute('aria-invalid')).toBe('true');
    expect(await first.inputValue()).toBe(SHORT_MARKUP);
    await expectInert(page);
    expect((await api(server, admin, '/api/flights/booking/list', {})).body.data).toEqual([]);
  });

  it('an agent named with markup is listed by that very text', async () => {
    const admin = await newAgency(server);
    await addAgent(server, admin, { name: MARKUP });
    await using watched = await signedInPage(server, admin);
    const { page } = watched;

    await page.goto(`${server.url}/agency/agents`);
    await page.getByText(MARKUP).first().waitFor();

    await expectInert(page);
  });

  it('a webhook URL with quotes and markup is listed by that very text', async () => {
    const admin = await newAgency(server);
    const url = `http://127.0.0.1:9/hooks?a="'><img src=x onerror="window.__pwned=1">`;
    const created = await api(server, admin, '/api/agency/webhooks/create', { url });
    await using watched = await signedInPage(server, admin);
    const { page } = watched;

    await page.goto(`${server.url}/agency/webhooks`);
    await page.getByText(created.body.data.url).first().waitFor();

    expect(created.status).toBe(201);
    await expectInert(page);
  });

  it('an inline script injected into the page does not run under the CSP', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    await page.goto(`${server.url}/search`);
    await page.getByRole('button', { name: named('Search') }).waitFor();

    // Resolves with the directive the browser reports as violated (or 'ran' if the script ran).
    const outcome = await page.evaluate(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true });
      window.__ran = () => resolve('ran');
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1; window.__ran();';
      document.body.append(script);
    })`);

    expect(outcome).toBe('script-src-elem');
    expect(await page.evaluate('window.__inline')).toBeUndefined();
    expect(errors.join('\n')).toMatch(/Content Security Policy/);
    expect(await readableByScript(page)).not.toContain(admin.token);
  });
});
