import { describe, expect, it } from 'vitest';
import {
  api,
  expectAccessible,
  inDays,
  newAgency,
  type Served,
  type SignedIn,
  shared,
  signedInPage,
} from './harness.ts';
import { named, tabTo } from './steps.ts';

const server = shared();

type Offer = {
  id: string;
  total_price: string;
  currency: string;
  outbound: { segments: { departure_at: string }[] };
};

/** The direct LHR→JFK offers on `date`, earliest first. */
async function directOffers(who: SignedIn, at: Served, date: string): Promise<Offer[]> {
  const searched = await api(at, who, '/api/flights/search', {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: date,
    adults: 1,
    max_connections: 0,
    sort: 'DEPARTURE',
  });
  return searched.body.data;
}

/**
 * Books (or holds) `chosen`, or the first direct LHR→JFK offer on the date `chosen`, through the API, for
 * a traveller named `lastName`.
 */
async function bookFor(who: SignedIn, at: Served, chosen: string | Offer, lastName: string, hold = false) {
  const offer = typeof chosen === 'string' ? (await directOffers(who, at, chosen))[0] : chosen;
  if (!offer) throw new Error(`no direct offer on ${chosen}`);
  const booked = await api(at, who, '/api/flights/booking/create', {
    flight_id: offer.id,
    flight_details: offer,
    total_price: offer.total_price,
    currency: offer.currency,
    passengers: [
      {
        title: 'ms',
        first_name: 'Ada',
        last_name: lastName,
        pax_type: 'ADULT',
        gender: 'f',
        born_on: '1985-12-10',
      },
    ],
    contact: { email: 'traveller@example.com', phone: '+447700900123' },
    ...(hold && { hold: true }),
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return booked.body.data as { booking_id: string; pnr: string; payment_required_by?: string };
}

// One walk across six screens with five axe checks, as the day walks (day.test.ts): 22.1–30.1 s of a
// 60 s timeout in the loaded check (fresh clones beside npm start and two busy loops, load about 10),
// where the slowest test must stay under half its timeout.
describe('browser: the bookings workspace, by keyboard', { timeout: 120_000 }, () => {
  it('finds by surname, adds a note, prints the itinerary, lists holds by deadline; axe clean, also at 390 px', async () => {
    const admin = await newAgency(server);
    // The sooner deadline is the older hold: newest first and soonest deadline first disagree. A hold
    // ends a day after it is made or 48 hours before departure, whichever is sooner (docs/API.md): the
    // older hold departs 50 to 71 hours from now, so its deadline comes first at any hour of the day.
    const departs = (offer: Offer) => Date.parse(offer.outbound.segments[0]?.departure_at ?? '');
    const from = Date.now() + 50 * 3_600_000;
    const soonOffer = [
      ...(await directOffers(admin, server, inDays(2))),
      ...(await directOffers(admin, server, inDays(3))),
    ].find((offer) => departs(offer) >= from && departs(offer) < from + 21 * 3_600_000);
    expect(soonOffer, 'a direct flight 50–71 hours from now').toBeDefined();
    const soon = await bookFor(admin, server, soonOffer as Offer, 'Okafor', true);
    const later = await bookFor(admin, server, inDays(20), 'Nakamura', true);
    const found = await bookFor(admin, server, inDays(21), 'Núñez');
    expect(Date.parse(soon.payment_required_by ?? '')).toBeLessThan(
      Date.parse(later.payment_required_by ?? ''),
    );
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    await page.goto(`${server.url}/bookings`);

    // Find by surname: accents and case ignored.
    await tabTo(page, page.getByLabel('Search bookings'));
    await page.keyboard.type('NUNEZ');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'NUNEZ');
    const row = page.getByRole('link', { name: found.pnr });
    await row.waitFor();
    await expect.poll(() => page.locator('table.bookings tbody tr').count()).toBe(1);
    await expectAccessible(page, 'bookings searched');

    // A departure date that is no day of the calendar is refused in the page, focus on the field.
    await tabTo(page, page.getByLabel('Departs from'));
    await page.keyboard.type('2026-02-31');
    await page.keyboard.press('Enter');
    await page.getByText('Write the date as YYYY-MM-DD, e.g. 2026-12-24.').waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('search-from');
    expect(new URL(page.url()).searchParams.has('departure_from')).toBe(false);
    await page.getByLabel('Departs from').fill('');

    // Open it and add a note.
    await tabTo(page, row);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/bookings/${found.booking_id}`);
    await tabTo(page, page.getByLabel('Note', { exact: true }));
    await page.keyboard.type('Prefers an aisle seat');
    await tabTo(page, page.getByRole('button', { name: named('Add note') }));
    await page.keyboard.press('Enter');
    await page.getByText('Prefers an aisle seat').waitFor();
    const stored = await api(server, admin, '/api/flights/booking/get', { booking_id: found.booking_id });
    expect(stored.body.data.notes.map((n: { text: string }) => n.text)).toEqual(['Prefers an aisle seat']);

    // The print view: the itinerary alone on paper, no navigation or buttons.
    await tabTo(page, page.getByRole('button', { name: named('Print itinerary') }));
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: new RegExp(`Your itinerary: ${found.pnr}`) });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    await expectAccessible(page, 'print view');
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByText(`Booking reference (PNR): ${found.pnr}`).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: named('Print') }).isVisible()).toBe(false);
    expect(await page.getByText('Prefers an aisle seat').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });

    // The Holds view: soonest deadline first, each with its deadline on the agent's clock, zone named.
    await tabTo(page, page.getByRole('link', { name: named('Bookings') }).first());
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/bookings');
    await tabTo(page, page.getByRole('link', { name: named('Holds') }));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('view') === 'holds');
    await page.getByRole('link', { name: later.pnr }).waitFor();
    const rows = page.locator('table.bookings tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain(soon.pnr);
    expect(await rows.nth(1).textContent()).toContain(later.pnr);
    expect(await rows.nth(0).locator('td.deadline').textContent()).toMatch(
      /\d{2}:\d{2} [A-Z][A-Za-z0-9+:-]* \(your time\)$/,
    );
    await expectAccessible(page, 'holds');

    // A phone: no sideways scrolling, tables read as lists; axe clean there too.
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = () => page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
    expect(await sideways()).toBe(false);
    await expectAccessible(page, 'holds at 390 px');
    await page.goto(`${server.url}/bookings/${found.booking_id}`);
    await page.getByText('Prefers an aisle seat').waitFor();
    expect(await sideways()).toBe(false);
    await expectAccessible(page, 'booking at 390 px');
    expect(errors).toEqual([]);
  });
});
