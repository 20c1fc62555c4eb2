import { describe, expect, it } from 'vitest';
import { exampleTraveller } from '#shared/bookings/example-traveller.ts';
import {
  api,
  expectAccessible,
  inDays,
  newAgency,
  readableByScript,
  shared,
  signedInPage,
} from './harness.ts';
import {
  agencyBookings,
  amountText,
  bookingByPnr,
  button,
  field,
  fillContact,
  fillPassenger,
  openBooking,
  readyToBook,
  search,
  searchMultiCity,
  shownPnr,
  showsStatus,
  tabAndType,
  tabTo,
} from './steps.ts';

const server = shared();

/** A fresh agency's ADMIN on the search screen. */
async function onSearch() {
  const admin = await newAgency(server);
  const watched = await signedInPage(server, admin);
  await watched.page.goto(`${server.url}/search`);
  return { admin, ...watched };
}

describe.concurrent('browser: search, book, find, cancel', () => {
  it('books a one-way offer, finds it by PNR in any case, and cancels it at the quoted refund', async () => {
    const { admin, page, errors } = await onSearch();
    await expectAccessible(page, 'search');
    const found = await search(page);
    await expectAccessible(page, 'results');
    expect(await found.first().textContent()).toMatch(/\d/);
    await button(found.first(), 'Select').click();
    await page.waitForURL((url) => url.pathname === '/book');
    await fillPassenger(page, 1);
    await fillContact(page);
    await expectAccessible(page, 'book');

    await button(page, 'Book').click();
    const pnr = await shownPnr(page);
    const booked = await bookingByPnr(server, admin, pnr);
    expect(booked).toMatchObject({
      status: 'CONFIRMED',
      passengers: [{ first_name: 'Grace', last_name: 'Hopper' }],
    });

    await page.getByRole('link', { name: /^\W*Bookings\b/i }).click();
    await page.waitForURL((url) => url.pathname === '/bookings');
    await field(page, 'PNR').fill(pnr.toLowerCase());
    await page.keyboard.press('Enter');
    await page
      .getByRole('link', { name: new RegExp(pnr) })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === `/bookings/${booked.booking_id}`);
    await showsStatus(page, 'CONFIRMED');
    await expectAccessible(page, 'booking');

    const quote = await api(server, admin, '/api/flights/booking/refund-quote', {
      booking_id: booked.booking_id,
    });
    await button(page, 'Cancel booking').click();
    const dialog = page.getByRole('dialog');
    // The refund follows the fare's conditions: the cheapest fares give none, and the dialog says so.
    const { refund } = quote.body.data;
    // The dialog opens at once and says the refund when its quote comes: wait for those words.
    await dialog
      .getByText(refund.amount > 0 ? amountText(refund.amount) : 'This fare gives no refund')
      .waitFor();
    await expectAccessible(page, 'cancel dialog');
    await button(dialog, 'Cancel and refund').click();
    await showsStatus(page, 'CANCELLED');

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CANCELLED',
      refund: quote.body.data.refund,
    });
    expect(await readableByScript(page)).not.toContain(admin.token);
    expect(errors).toEqual([]);
  });

  it('lists the agency bookings newest first with status badges', async () => {
    const { admin, page } = await onSearch();
    await readyToBook(page);
    await button(page, 'Book').click();
    const pnr = await shownPnr(page);

    await page.goto(`${server.url}/bookings`);
    await page
      .getByRole('link', { name: new RegExp(pnr) })
      .first()
      .waitFor();

    await expectAccessible(page, 'bookings');
    const [newest] = await agencyBookings(server, admin);
    expect(newest?.pnr).toBe(pnr);
    await showsStatus(page, 'CONFIRMED');
  });

  it('books a return trip: both directions on the booking', async () => {
    const { admin, page } = await onSearch();
    await readyToBook(page, { date: inDays(12), returnDate: inDays(19) });

    await button(page, 'Book').click();
    const pnr = await shownPnr(page);

    const booked = await bookingByPnr(server, admin, pnr);
    expect(booked.status).toBe('CONFIRMED');
    expect(booked.flight.inbound.segments[0].origin).toBe('JFK');
    expect(booked.flight.outbound.segments[0].origin).toBe('LHR');
  });

  it('searches and books a three-journey trip: every journey on the offer and the booking', async () => {
    const { admin, page } = await onSearch();
    const found = await searchMultiCity(page, [
      { from: 'LHR', to: 'JFK', date: inDays(14) },
      { from: 'JFK', to: 'LAX', date: inDays(16) },
      { from: 'LAX', to: 'LHR', date: inDays(18) },
    ]);
    // The third journey shown means all three are: Playwright waits for it (vitest's polling matcher needs
    // the test's own expect when tests run concurrently, and the shared one fails at random there).
    const journeys = found.first().getByText(/^Journey \d/);
    await journeys.nth(2).waitFor();
    expect(await journeys.count()).toBe(3);

    await button(found.first(), 'Select').click();
    await page.waitForURL((url) => url.pathname === '/book');
    await fillPassenger(page, 1);
    await fillContact(page);
    await button(page, 'Book').click();
    const pnr = await shownPnr(page);

    const booked = await bookingByPnr(server, admin, pnr);
    expect(booked.status).toBe('CONFIRMED');
    expect(
      booked.flight.slices.map((s: { segments: { origin: string }[] }) => s.segments[0]?.origin),
    ).toEqual(['LHR', 'JFK', 'LAX']);
    expect(booked.flight).not.toHaveProperty('inbound');
  });

  it('holds an offer, shows its deadline, and confirms it at the held price', async () => {
    const { admin, page } = await onSearch();
    await readyToBook(page, { date: inDays(14) });

    await button(page, 'Hold').click();
    const pnr = await shownPnr(page);
    const held = await openBooking(page, server, admin, pnr);
    await showsStatus(page, 'HELD');
    expect(held.status).toBe('HELD');
    await expectAccessible(page, 'held booking');
    await button(page, 'Confirm').click();
    await showsStatus(page, 'CONFIRMED');

    expect(await bookingByPnr(server, admin, pnr)).toMatchObject({
      status: 'CONFIRMED',
      total_price: held.total_price,
    });
  });

  it('changes a booking’s flight with the keyboard: offers with penalty, fare difference and total, then its history', async () => {
    const admin = await newAgency(server);
    // First class: every fare allows a change, free (docs/flights.md, "Fare conditions").
    const trip = {
      origin: 'LHR',
      destination: 'JFK',
      departure_date: inDays(20),
      travel_class: 'FIRST',
      max_connections: 0,
    };
    const [offer] = (await api(server, admin, '/api/flights/search', trip)).body.data;
    const made = await api(server, admin, '/api/flights/booking/create', {
      flight_id: offer.id,
      flight_details: offer,
      total_price: offer.total_price,
      currency: offer.currency,
      ...exampleTraveller,
    });
    const { page } = await signedInPage(server, admin);
    await openBooking(page, server, admin, made.body.data.pnr);

    await tabTo(page, button(page, 'Change flights'));
    await page.keyboard.press('Enter');
    const [year, month, day] = inDays(22).split('-');
    await tabAndType(page, field(page, 'New date for Outbound'), `${month}${day}${year}`);
    await tabTo(page, button(page, 'Find changes'));
    await page.keyboard.press('Enter');
    const first = page.getByRole('radio', { name: /^Change offer 1:/ });
    await first.waitFor();
    await page
      .getByText(/Penalty .* fare difference/)
      .first()
      .waitFor();
    await expectAccessible(page, 'change offers');
    await tabTo(page, button(page, 'Confirm change'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Changes' }).waitFor();

    const changed = await bookingByPnr(server, admin, made.body.data.pnr);
    expect(changed.version).toBe(2);
    expect(changed.changes).toHaveLength(1);
    expect(changed.flight.outbound.segments[0].departure_at.slice(0, 10) >= inDays(22)).toBe(true);
    expect(changed.changes[0].from).toEqual(made.body.data.flight.outbound.segments);
  });

  it('books once when Book is double-clicked', async () => {
    const { admin, page } = await onSearch();
    await readyToBook(page);

    await button(page, 'Book').dblclick();
    const pnr = await shownPnr(page);
    await page.waitForLoadState('networkidle');

    const bookings = await agencyBookings(server, admin);
    expect(bookings.map((booking) => booking.pnr)).toEqual([pnr]);
  });
});
