import { describe, expect, it } from 'vitest';
import { expectAccessible, inDays, newAgency, shared, signedInPage } from './harness.ts';
import {
  amountText,
  bookingByPnr,
  button,
  named,
  openBooking,
  readyToBook,
  shownPnr,
  tabTo,
} from './steps.ts';

const server = shared();

describe('browser: bags and seats', () => {
  it('books the seat that shows, however soon Book is pressed after it', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    // Another day's flight than the walk below: each takes the first window seat of its own.
    await readyToBook(page, { date: inDays(17) });
    await button(page, 'Choose bags and seats').click();
    const seat = page
      .getByRole('group', { name: named('Seat map, Flight 1') })
      .getByRole('button', { name: /^Seat \d+A, window, €20\.00$/ })
      .first();
    const designator = /^Seat (\d+A)/.exec((await seat.getAttribute('aria-label')) ?? '')?.[1] ?? '';

    // Book is pressed in the same moment the page shows the seat as the passenger's: before the next
    // paint, which a loaded machine can delay for as long as it takes a person to press a key.
    await page.evaluate((shown) => {
      const observer = new MutationObserver(() => {
        if (!document.body.textContent?.includes(shown)) return;
        observer.disconnect();
        const book = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Book');
        book?.click();
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, `Passenger 1: ${designator}, €20.00`);
    await seat.click();
    const pnr = await shownPnr(page);

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      passengers: [{ seats: [{ segment_index: 0, designator, price: { amount: 20, currency: 'EUR' } }] }],
    });
  });

  it('picks a window seat and a bag with the keyboard alone, the total following, and books them', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    await readyToBook(page);
    const shownTotal = Number(
      ((await page.getByRole('region', { name: 'Chosen offer' }).textContent()) ?? '')
        .match(/€([\d,]+\.\d\d)/)?.[1]
        ?.replace(',', ''),
    );

    await tabTo(page, button(page, 'Choose bags and seats'));
    await page.keyboard.press('Enter');
    const map = page.getByRole('group', { name: named('Seat map, Flight 1') });
    await map.waitFor();
    await expectAccessible(page, 'seat map');

    const bag = page.getByLabel(/^Passenger 1 \(adult\), .*: 23 kg bags, €60\.00 each$/);
    await tabTo(page, bag);
    await page.keyboard.press('ArrowDown');
    // One tab stop for the whole map; the arrows move between open seats.
    await tabTo(page, map.getByRole('button').and(page.locator('[tabindex="0"]')));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    // The first open seat is the bulkhead's window (extra legroom); the row behind it is a standard one.
    await page.keyboard.press('ArrowDown');
    const focused = page.locator(':focus');
    const name = (await focused.getAttribute('aria-label')) ?? '';
    expect(name).toMatch(/^Seat \d+A, window, €20\.00$/);
    await page.keyboard.press('Enter');

    await expect.poll(() => focused.getAttribute('aria-pressed')).toBe('true');
    const designator = /^Seat (\d+A)/.exec(name)?.[1];
    await page.getByText(`Passenger 1: ${designator}, €20.00`).waitFor();
    await page
      .getByText(amountText(shownTotal + 80))
      .first()
      .waitFor();
    await expect.poll(() => map.getByRole('button', { disabled: true }).count()).toBeGreaterThan(0);

    await tabTo(page, button(page, 'Book'));
    await page.keyboard.press('Enter');
    const pnr = await shownPnr(page);

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      total_price: Math.round((shownTotal + 80) * 100) / 100,
      services: [{ id: 'bag_0_0', quantity: 1, price: { amount: 60, currency: 'EUR' } }],
      passengers: [{ seats: [{ segment_index: 0, designator, price: { amount: 20, currency: 'EUR' } }] }],
    });

    // The booking says what was sold: the seat and the bag with the passenger, their breakdown lines, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await openBooking(page, server, admin, pnr);
    const bought = page.getByRole('list', { name: /^Seats and bags of / });
    await bought.getByText(new RegExp(`^Seat ${designator} on \\w+ \\w{3}–\\w{3}, €20\\.00$`)).waitFor();
    await bought.getByText('1 checked bag of 23 kg, Outbound, €60.00 each').waitFor();
    await page
      .getByRole('list', { name: 'Outbound conditions' })
      .getByText(/refundable/i)
      .waitFor();
    const breakdown = page.getByRole('listitem');
    await breakdown.filter({ hasText: /^1 bag for adults: €60\.00$/ }).waitFor();
    await breakdown.filter({ hasText: /^1 seat for adults: €20\.00$/ }).waitFor();
    await breakdown.filter({ hasText: /^1 adult: €.+ fare \+ €.+ taxes = €/ }).waitFor();
    await expectAccessible(page, 'booking with a seat and a bag at 390 px');
    const sideways = () => document.documentElement.scrollWidth > document.documentElement.clientWidth;
    expect(await page.evaluate(sideways)).toBe(false);
  });
});
