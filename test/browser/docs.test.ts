import { describe, expect, it } from 'vitest';
import { newPage, shared } from './harness.ts';

/** The page's policy: its own scripts, styles and data, Swagger UI's inline images, nothing inline else. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * `/docs` under its Content-Security-Policy (infra/local/docs.ts): Swagger UI as served renders the
 * document and opens an operation with nothing refused — a CSP refusal is a console error, which the
 * page's watcher records.
 */
describe('browser: the API documentation page', () => {
  it('renders the OpenAPI document under its strict CSP, with nothing refused', async () => {
    await using watched = await newPage();
    const { page, errors, settled } = watched;

    const response = await page.goto(`${shared().url}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor();
    await settled();

    expect(response?.headers()['content-security-policy']).toBe(DOCS_CSP);
    expect(await page.locator('.swagger-ui .info .title').textContent()).toContain('Flight Booking API');
    expect(errors).toEqual([]);
  });
});
