import type { Schemas } from '../api.ts';
import type { Offer, Sort } from '../offers.ts';
import { readStored } from '../storage.ts';
import { isIsoDate, todayHere } from '../time.ts';

/**
 * The search form as data (docs/console.md, Search): its fields, the request each kind of trip sends
 * (typed by openapi.json), and what the page checks before asking. No markup: search-fields.tsx draws it.
 */
export type TripKind = 'one-way' | 'return' | 'multi-city';
export interface Journey {
  from: string;
  to: string;
  date: string;
}
export interface SearchForm {
  kind: TripKind;
  from: string;
  to: string;
  date: string;
  returnDate: string;
  journeys: Journey[];
  adults: number;
  children: number;
  infants: number;
  cabin: Schemas['SearchRequest']['travel_class'];
  maxConnections: 0 | 1;
}

export const MAX_JOURNEYS = 6;
export const emptyJourney = (): Journey => ({ from: '', to: '', date: '' });
export const initialForm = (): SearchForm => ({
  kind: 'one-way',
  from: '',
  to: '',
  date: '',
  returnDate: '',
  journeys: [emptyJourney(), emptyJourney()],
  adults: 1,
  children: 0,
  infants: 0,
  cabin: 'ECONOMY',
  maxConnections: 1,
});

/** The results kept for the tab: back from /book or a reload shows them again. */
export interface StoredResults {
  offers: Offer[];
}
export const RESULTS_KEY = 'results';
export const OFFER_KEY = 'offer';
/** A message the book screen leaves for the results (an offer sold out or expired). */
export const NOTICE_KEY = 'results-notice';

export const code = (text: string) => text.trim().toUpperCase();

type SearchRequest = Schemas['SearchRequest'];
type Passengers = Omit<SearchRequest, 'origin' | 'destination' | 'departure_date' | 'return_date'>;

/** The results' order, chosen on the results; a new search asks for the best 100 in it. */
export const SORT_KEY = 'results-sort';

/** The passengers and preferences every kind of trip sends; 100 offers, the most search gives. */
const preferencesOf = (form: SearchForm): Passengers => ({
  adults: form.adults,
  children: form.children,
  infants: form.infants,
  travel_class: form.cabin,
  max_connections: form.maxConnections,
  sort: readStored<Sort>(SORT_KEY) ?? 'PRICE',
  limit: 100,
});

/** A one-way or return search, as openapi.json types it. */
export const tripRequest = (form: SearchForm): SearchRequest => ({
  origin: code(form.from),
  destination: code(form.to),
  departure_date: form.date,
  ...(form.kind === 'return' && { return_date: form.returnDate }),
  ...preferencesOf(form),
});

/** A multi-city search: `slices` (docs/API.md §4.1), 2–6 journeys. */
export const multiCityRequest = (form: SearchForm): SearchRequest => ({
  slices: form.journeys.map((j) => ({
    origin: code(j.from),
    destination: code(j.to),
    departure_date: j.date,
  })),
  ...preferencesOf(form),
});

/** The request fields this form shows an error beside, for its kind of trip. */
export function shownPaths(form: SearchForm): Set<string> {
  const paths = ['adults', 'children', 'infants'];
  if (form.kind === 'multi-city')
    form.journeys.forEach((_, i) => {
      paths.push(`slices.${i}.origin`, `slices.${i}.destination`, `slices.${i}.departure_date`, 'slices');
    });
  else
    paths.push('origin', 'destination', 'departure_date', ...(form.kind === 'return' ? ['return_date'] : []));
  return new Set(paths);
}

/** Field errors of the form, before asking the service: what the page can tell at once. */
export function checkForm(form: SearchForm): Map<string, string> {
  const errors = new Map<string, string>();
  const airport = (path: string, value: string) => {
    if (!/^[A-Za-z]{3}$/.test(value.trim()))
      errors.set(path, 'Choose an airport from the list, or type its 3-letter code.');
  };
  const day = (path: string, value: string, min: string) => {
    if (!value) errors.set(path, 'Enter a date (YYYY-MM-DD).');
    else if (!isIsoDate(value)) errors.set(path, 'Write the date as YYYY-MM-DD, e.g. 2026-12-24.');
    else if (value < min) errors.set(path, 'This date is in the past, or before the one above.');
  };
  const today = todayHere();
  if (form.kind === 'multi-city') {
    let min = today;
    form.journeys.forEach((journey, index) => {
      airport(`slices.${index}.origin`, journey.from);
      airport(`slices.${index}.destination`, journey.to);
      day(`slices.${index}.departure_date`, journey.date, min);
      if (journey.date > min) min = journey.date;
    });
  } else {
    airport('origin', form.from);
    airport('destination', form.to);
    day('departure_date', form.date, today);
    if (form.kind === 'return') day('return_date', form.returnDate, form.date || today);
  }
  if (form.infants > form.adults) errors.set('infants', 'At most one infant per adult.');
  if (form.adults + form.children > 9) errors.set('children', 'At most 9 seated passengers in all.');
  return errors;
}
