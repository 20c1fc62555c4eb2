import { describe, expect, it } from 'vitest';
import { expectAccessible, newAgency, newPage, shared, signedInPage, signInThroughForm } from './harness.ts';
import { button } from './steps.ts';

const server = shared();

/**
 * `next` values a link could carry: tabs and line breaks (which the browser drops, so `/\t/x` is
 * `//x`, another host), another host, broken percent escapes, a scheme.
 */
const CRAFTED = [
  '/\t/evil.example/x',
  '/\r\n/evil.example/x',
  '//evil.example/x',
  '/%E0%A4%A',
  '/bookings/%E0%A4%A',
  '/bookings/%',
  'javascript:alert(1)',
];

describe.concurrent('browser: a crafted address never blanks the console', () => {
  for (const next of CRAFTED)
    it(`signs in from /sign-in?next=${JSON.stringify(next)} to a working search screen`, async () => {
      // An agency of its own: a code may be sent to an identifier once per 30 s.
      const admin = await newAgency(server);
      await using watched = await newPage();
      const { page, errors } = watched;
      await page.goto(`${server.url}/sign-in?next=${encodeURIComponent(next)}`);

      await signInThroughForm(page, server, admin.identifier);

      await button(page, 'Search').waitFor();
      expect(new URL(page.url()).origin).toBe(server.url);
      expect(new URL(page.url()).pathname).toBe('/search');
      expect(errors).toEqual([]);
    });

  it('goes to search from a next whose broken escape is in the address as typed', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;

    await page.goto(`${server.url}/sign-in?next=/bookings/%E0%A4%A`);

    await button(page, 'Search').waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(errors).toEqual([]);
  });

  it('shows a plain message with a way back when a screen cannot show an answer, never a blank page', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    // An answer of a shape the booking screen does not expect: no flight.
    await page.route('**/api/flights/booking/get', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          success: true,
          data: { booking_id: 'bkg_x', pnr: 'ABC123', status: 'CONFIRMED' },
        }),
      }),
    );

    await page.goto(`${server.url}/bookings/bkg_x`);

    await page.getByRole('heading', { name: /something went wrong/i }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expectAccessible(page, 'error boundary');
    await page.getByRole('link', { name: /go to search/i }).click();
    await button(page, 'Search').waitFor();
    expect(new URL(page.url()).pathname).toBe('/search');
    expect(errors).toEqual([]);
  });
});
