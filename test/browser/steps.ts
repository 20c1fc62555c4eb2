import type { Locator, Page } from 'playwright-core';
import { api, inDays, type Served, type SignedIn } from '../helpers/console-agents.ts';

/**
 * What an agent does on the console, step by step, found only by docs/console.md's accessible names (case
 * ignored, more words around them allowed): the tests read as the agent's day and never depend on
 * markup or class names.
 */

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An accessible name that starts with `text` as whole words, in any case. */
export const named = (text: string) => new RegExp(`^\\W*${escaped(text)}(?!\\w)`, 'i');

export const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: named(name) });
export const field = (scope: Page | Locator, name: string) => scope.getByLabel(named(name));

/** Picks the option matching `wanted` in the select (or radio group) named `label`. */
export async function choose(scope: Page | Locator, label: string, wanted: RegExp): Promise<void> {
  const select = scope.getByRole('combobox', { name: named(label) }).and(scope.locator('select'));
  if ((await select.count()) > 0) {
    for (const option of await select.locator('option').all()) {
      const value = (await option.getAttribute('value')) ?? '';
      const text = (await option.textContent())?.trim() ?? '';
      if (wanted.test(value) || wanted.test(text)) return void (await select.selectOption(value));
    }
    throw new Error(`no option ${wanted} in ${label}`);
  }
  await scope
    .getByRole('radiogroup', { name: named(label) })
    .getByRole('radio', { name: wanted })
    .check();
}

/** Types an airport code into the field and takes the suggestion that carries it. */
export async function chooseAirport(scope: Page | Locator, label: string, code: string): Promise<void> {
  const input = scope.getByRole('combobox', { name: named(label) });
  await input.fill(code);
  await scope
    .getByRole('option', { name: new RegExp(`\\b${code}\\b`) })
    .first()
    .click();
}

export interface Trip {
  from?: string;
  to?: string;
  date?: string;
  returnDate?: string;
  cabin?: RegExp;
  adults?: number;
  children?: number;
}

/** Fills the search form (one way, or return with `returnDate`) and waits for the offers. */
export async function search(page: Page, trip: Trip = {}): Promise<Locator> {
  await page.getByRole('button', { name: named('Search') }).waitFor();
  await chooseKind(page, trip.returnDate ? 'Return' : 'One way');
  await chooseAirport(page, 'From', trip.from ?? 'LHR');
  await chooseAirport(page, 'To', trip.to ?? 'JFK');
  await field(page, 'Departure date').fill(trip.date ?? inDays(10));
  if (trip.returnDate) await field(page, 'Return date').fill(trip.returnDate);
  if (trip.adults) await field(page, 'Adults').fill(String(trip.adults));
  if (trip.children) await field(page, 'Children').fill(String(trip.children));
  if (trip.cabin) await choose(page, 'Cabin', trip.cabin);
  await page.getByRole('button', { name: named('Search') }).click();
  const found = offers(page);
  await found.first().waitFor();
  return found;
}

/** Fills a multi-city search, journey by journey (adding journeys past the first two), and waits for the offers. */
export async function searchMultiCity(
  page: Page,
  journeys: readonly { from: string; to: string; date: string }[],
): Promise<Locator> {
  await page.getByRole('button', { name: named('Search') }).waitFor();
  await chooseKind(page, 'Multi-city');
  for (const [index, journey] of journeys.entries()) {
    if (index >= 2) await button(page, 'Add journey').click();
    const block = page.getByRole('group', { name: named(`Journey ${index + 1}`) });
    await chooseAirport(block, 'From', journey.from);
    await chooseAirport(block, 'To', journey.to);
    await field(block, 'Date').fill(journey.date);
  }
  await page.getByRole('button', { name: named('Search') }).click();
  const found = offers(page);
  await found.first().waitFor();
  return found;
}

/** The trip kind, a radio group or a select (docs/console.md allows both). */
async function chooseKind(page: Page, kind: 'One way' | 'Return' | 'Multi-city'): Promise<void> {
  const radio = page.getByRole('radio', { name: named(kind) });
  if ((await radio.count()) > 0) return radio.check();
  const select = page.locator('select', { has: page.getByRole('option', { name: named(kind) }) });
  const label = (await select.getByRole('option', { name: named(kind) }).textContent()) ?? kind;
  await select.selectOption({ label: label.trim() });
}

/** The result list's offers: articles (or list items) that carry a `Select` button. */
export const offers = (page: Page) =>
  page
    .locator('article, [role=article], li')
    .filter({ has: page.getByRole('button', { name: named('Select') }) });

export interface Traveller {
  title?: RegExp;
  first?: string;
  last?: string;
  gender?: RegExp;
  born?: string;
}

/** Fills passenger block `n` (from 1); an adult by default. */
export async function fillPassenger(page: Page, n: number, who: Traveller = {}): Promise<void> {
  const block = page.getByRole('group', { name: named(`Passenger ${n}`) });
  await choose(block, 'Title', who.title ?? /^(dr|dr\.)$/i);
  await field(block, 'First name').fill(who.first ?? 'Grace');
  await field(block, 'Last name').fill(who.last ?? 'Hopper');
  await choose(block, 'Gender', who.gender ?? /^(f|female)$/i);
  await field(block, 'Date of birth').fill(who.born ?? '1976-12-09');
}

/** Fills the contact fields. */
export async function fillContact(page: Page): Promise<void> {
  await field(page, 'Contact e-mail').fill('grace@example.com');
  await field(page, 'Contact phone').fill('+447700900456');
}

/** Selects the first offer and fills the one adult and the contact: the book screen, ready. */
export async function readyToBook(page: Page, trip: Trip = {}): Promise<void> {
  const found = await search(page, trip);
  await button(found.first(), 'Select').click();
  await page.waitForURL((url) => url.pathname === '/book');
  await fillPassenger(page, 1);
  await fillContact(page);
}

/** An amount as the console writes it, with or without thousands separators: 1366 → `1,?366.00`. */
export const amountText = (amount: number) =>
  new RegExp(
    `\\b${amount
      .toFixed(2)
      .replace(/\B(?=(\d{3})+\.)/g, ',?')
      .replace('.', '\\.')}\\b`,
  );

const PNR = /PNR\W*([A-Z0-9]{5,8})\b/;
/** Waits for `PNR <reference>` on the screen and returns the reference. */
export async function shownPnr(page: Page): Promise<string> {
  const shown = page.getByText(PNR).first();
  await shown.waitFor();
  const match = PNR.exec((await shown.textContent()) ?? '');
  if (!match?.[1]) throw new Error('no PNR shown');
  return match[1];
}

/** Waits until the status word (`CONFIRMED`, `HELD`, …) is on the screen. */
export const showsStatus = (page: Page, status: string) =>
  page
    .getByText(new RegExp(`\\b${status}\\b`))
    .first()
    .waitFor();

/** The agency's bookings as the API lists them (every page). */
export async function agencyBookings(server: Served, who: SignedIn) {
  const listed = await api(server, who, '/api/flights/booking/list', { limit: 100 });
  return listed.body.data as { booking_id: string; pnr: string; status: string; total_price: number }[];
}

/** The booking with `pnr`, through the API. */
export async function bookingByPnr(server: Served, who: SignedIn, pnr: string) {
  const found = await api(server, who, '/api/flights/booking/get', { pnr });
  return found.body.data;
}

/** Presses Tab until `target` has the focus (at most 120 times), as a keyboard user moves. */
export async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 120; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element.matches(':focus'))) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Focuses `target` by Tab and types `text` into it. */
export async function tabAndType(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

/** What the book form's first passenger and its contact are typed as, field by field. */
export interface TypedTraveller {
  title: string;
  first: string;
  last: string;
  gender: string;
  born: string;
  email: string;
  phone: string;
}

/** Types the first passenger and the contact on Book with the keyboard alone (Tab, then the text). */
export async function typeTraveller(page: Page, who: TypedTraveller): Promise<void> {
  const block = page.getByRole('group', { name: named('Passenger 1') });
  await tabAndType(page, field(block, 'Title'), who.title);
  await tabAndType(page, field(block, 'First name'), who.first);
  await tabAndType(page, field(block, 'Last name'), who.last);
  await tabAndType(page, field(block, 'Gender'), who.gender);
  await tabAndType(page, field(block, 'Date of birth'), who.born);
  await tabAndType(page, field(page, 'Contact e-mail'), who.email);
  await tabAndType(page, field(page, 'Contact phone'), who.phone);
}

/** Opens the booking screen (`/bookings/<id>`) of the booking with `pnr`. */
export async function openBooking(page: Page, server: Served, who: SignedIn, pnr: string) {
  const booking = await bookingByPnr(server, who, pnr);
  await page.goto(`${server.url}/bookings/${booking.booking_id}`);
  await page
    .getByText(new RegExp(`PNR\\W*${pnr}`))
    .first()
    .waitFor();
  return booking;
}
