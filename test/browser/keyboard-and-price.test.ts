import { describe, expect, it } from 'vitest';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import { api, inDays, newAgency, type Served, type SignedIn, shared, signedInPage } from './harness.ts';
import {
  bookingByPnr,
  button,
  field,
  fillContact,
  fillPassenger,
  named,
  offers,
  search,
  shownPnr,
  tabAndType,
  tabTo,
  typeTraveller,
} from './steps.ts';

const server = shared();

type Offer = { id: string; total_price: number; outbound: { segments: { flight_number: string }[] } };
const flightNumbers = (offer: Offer) => offer.outbound.segments.map((segment) => segment.flight_number);
const firstClass = (date: string) => ({
  origin: 'LHR',
  destination: 'JFK',
  departure_date: date,
  travel_class: 'FIRST',
  limit: 50,
});

/**
 * Sells seats of `offer`'s flights through the API, one booking at a time, until the same search
 * quotes them dearer: the cheapest fare bucket is gone (first class has 4 buckets of a quarter each).
 * Returns the new price.
 */
async function sellUntilDearer(
  server: Served,
  seller: SignedIn,
  offer: Offer,
  date: string,
): Promise<number> {
  for (let sold = 0; sold < 12; sold++) {
    const again = await api(server, seller, '/api/flights/search', firstClass(date));
    const same = (again.body.data as Offer[]).find(
      (o) => flightNumbers(o).join() === flightNumbers(offer).join(),
    );
    if (!same) throw new Error('the offer is gone from the search');
    if (same.total_price > offer.total_price) return same.total_price;
    const booked = await api(server, seller, '/api/flights/booking/create', {
      flight_id: same.id,
      flight_details: same,
      total_price: same.total_price,
      currency: 'EUR',
      ...exampleTraveller,
    });
    if (booked.status !== 201) throw new Error(`selling a seat answered ${booked.status}`);
  }
  throw new Error('the price never rose');
}

describe.concurrent('browser: price changes and the keyboard', () => {
  it('shows PRICE_CHANGED with the old and new price and books at the new one once accepted', async () => {
    const admin = await newAgency(server);
    const seller = await newAgency(server, 'Another Agency');
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    const date = inDays(21);
    const found = await search(page, { date, cabin: /^first$/i });
    const shownFirst = ((await found.first().textContent()) ?? '').replace(/\s/g, '');
    const listed = (await api(server, admin, '/api/flights/search', firstClass(date))).body.data as Offer[];
    const chosen = listed.find((offer) =>
      flightNumbers(offer).every((number) => shownFirst.includes(number)),
    );
    if (!chosen) throw new Error(`no API offer matches the first shown: ${shownFirst}`);
    await button(found.first(), 'Select').click();
    await page.waitForURL((url) => url.pathname === '/book');
    await fillPassenger(page, 1);
    await fillContact(page);

    const dearer = await sellUntilDearer(server, seller, chosen, date);
    await button(page, 'Book').click();
    const accept = page.getByRole('button', { name: /accept/i });
    await accept.waitFor();
    const notice = ((await page.locator('main').textContent()) ?? '').replaceAll(',', '');
    expect(notice).toContain(chosen.total_price.toFixed(2));
    expect(notice).toContain(dearer.toFixed(2));
    await accept.click();
    const pnr = await shownPnr(page);

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CONFIRMED',
      total_price: dearer,
    });
  });

  it('books from search to PNR with the keyboard alone', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    await page.getByRole('button', { name: named('Search') }).waitFor();

    // "Heathrow" then Tab takes the first suggestion, highlighted; a code then Enter takes its own.
    const from = page.getByRole('combobox', { name: named('From') });
    await tabAndType(page, from, 'Heathrow');
    await page.getByRole('option', { name: /\bLHR\b/ }).waitFor();
    await page.keyboard.press('Tab');
    expect(await from.inputValue()).toBe('LHR');
    await tabAndType(page, page.getByRole('combobox', { name: named('To') }), 'CDG');
    await page.getByRole('option', { name: /\bCDG\b/ }).waitFor();
    await page.keyboard.press('Enter');
    // Dates in ISO order, whatever the browser's locale.
    await tabAndType(page, field(page, 'Departure date'), inDays(11));
    await tabTo(page, page.getByRole('button', { name: named('Search') }));
    await page.keyboard.press('Enter');
    await offers(page).first().waitFor();
    await tabTo(page, button(offers(page).first(), 'Select'));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/book');

    await typeTraveller(page, {
      title: 'Dr',
      first: 'Alan',
      last: 'Turing',
      gender: 'M',
      born: '1980-06-23',
      email: 'alan@example.com',
      phone: '+44 (0)7700 900-789',
    });
    await tabTo(page, button(page, 'Book'));
    await page.keyboard.press('Enter');
    const pnr = await shownPnr(page);

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CONFIRMED',
      passengers: [
        { title: 'dr', first_name: 'Alan', last_name: 'Turing', gender: 'm', born_on: '1980-06-23' },
      ],
      contact: { phone: '+447700900789' },
    });
  });
});
