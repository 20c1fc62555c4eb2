import { useState } from 'preact/hooks';
import { AirportField } from '../airport-field.tsx';
import { loadZones } from '../airports.ts';
import {
  client,
  type Failure,
  fieldErrors,
  type Outcome,
  type Schemas,
  settle,
  validationSummary,
} from '../api.ts';
import { ErrorNotice, Progress } from '../components.tsx';
import { NO_FILTERS, type Offer } from '../offers.ts';
import { navigate, type Place } from '../router.ts';
import { readStored, useDraft, writeStored } from '../storage.ts';
import { todayHere } from '../time.ts';
import { Results } from './results.tsx';

type TripKind = 'one-way' | 'return' | 'multi-city';
interface Journey {
  from: string;
  to: string;
  date: string;
}
interface SearchForm {
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
  sort: Schemas['SearchRequest']['sort'];
}

const MAX_JOURNEYS = 6;
const emptyJourney = (): Journey => ({ from: '', to: '', date: '' });
const initialForm = (): SearchForm => ({
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
  sort: 'PRICE',
});

/** The results kept for the tab: back from /book or a reload shows them again. */
export interface StoredResults {
  offers: Offer[];
}
export const RESULTS_KEY = 'results';
export const OFFER_KEY = 'offer';
/** A message the book screen leaves for the results (an offer sold out or expired). */
export const NOTICE_KEY = 'results-notice';

const code = (text: string) => text.trim().toUpperCase();

type SearchRequest = Schemas['SearchRequest'];
type Passengers = Omit<SearchRequest, 'origin' | 'destination' | 'departure_date' | 'return_date'>;

/** The passengers and preferences every kind of trip sends; 100 offers, the most search gives. */
const preferencesOf = (form: SearchForm): Passengers => ({
  adults: form.adults,
  children: form.children,
  infants: form.infants,
  travel_class: form.cabin,
  max_connections: form.maxConnections,
  sort: form.sort,
  limit: 100,
});

/** A one-way or return search, as openapi.json types it. */
const tripRequest = (form: SearchForm): SearchRequest => ({
  origin: code(form.from),
  destination: code(form.to),
  departure_date: form.date,
  ...(form.kind === 'return' && { return_date: form.returnDate }),
  ...preferencesOf(form),
});

/** A multi-city search: `slices` (docs/API.md §4.1), 2–6 journeys. */
const multiCityRequest = (form: SearchForm): SearchRequest => ({
  slices: form.journeys.map((j) => ({
    origin: code(j.from),
    destination: code(j.to),
    departure_date: j.date,
  })),
  ...preferencesOf(form),
});

/** The request fields this form shows an error beside, for its kind of trip. */
function shownPaths(form: SearchForm): Set<string> {
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
function checkForm(form: SearchForm): Map<string, string> {
  const errors = new Map<string, string>();
  const airport = (path: string, value: string) => {
    if (!/^[A-Za-z]{3}$/.test(value.trim()))
      errors.set(path, 'Choose an airport from the list, or type its 3-letter code.');
  };
  const day = (path: string, value: string, min: string) => {
    if (!value) errors.set(path, 'Choose a date.');
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

/** Sets one field of the search form. */
type SetField = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => void;

/** What the form's parts are given: the form, its errors by request path, and a way to set a field. */
interface FormPart {
  form: SearchForm;
  errors: Map<string, string>;
  set: SetField;
}

/**
 * The search itself: checked on the page first, then asked of the service with the searched airports'
 * zones beside it; the offers kept for the tab once on screen, the service's field errors shown by their fields.
 */
function useSearch(form: SearchForm) {
  const [results, setResults] = useState<StoredResults | undefined>(() => readStored(RESULTS_KEY));
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (pending) return;
    const found = checkForm(form);
    setErrors(found);
    setFailure(undefined);
    if (found.size > 0) return;
    setPending(true);
    // The searched airports' zones are asked for beside the search, so their times show local at once.
    const searched =
      form.kind === 'multi-city' ? form.journeys.flatMap((j) => [j.from, j.to]) : [form.from, form.to];
    void loadZones(searched.map(code));
    const body = form.kind === 'multi-city' ? multiCityRequest(form) : tripRequest(form);
    const outcome: Outcome<{ data: Offer[] }> = await settle(client.POST('/api/flights/search', { body }));
    setPending(false);
    if (!outcome.ok) {
      const fields = fieldErrors(outcome.failure);
      setErrors(fields);
      setFailure(outcome.failure);
      return;
    }
    const stored: StoredResults = { offers: outcome.body.data };
    writeStored('filters', NO_FILTERS);
    setResults(stored);
    // Kept for a reload or the way back from /book, once the offers are on screen (not before them).
    setTimeout(() => writeStored(RESULTS_KEY, stored), 0);
  };
  return { results, errors, failure, pending, submit };
}

export function SearchScreen(_props: { place: Place }) {
  const [form, setForm] = useDraft<SearchForm>('search', initialForm);
  const [notice] = useState<string | undefined>(() => {
    const text = readStored<string>(NOTICE_KEY);
    writeStored(NOTICE_KEY, undefined);
    return text;
  });
  const { results, errors, failure, pending, submit } = useSearch(form);
  const set: SetField = (key, value) => setForm({ ...form, [key]: value });
  const select = (offer: Offer) => {
    writeStored(OFFER_KEY, offer);
    navigate('/book');
  };

  return (
    <main id="main">
      <h1 tabIndex={-1}>Search flights</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate aria-label="Search flights">
        <TripKindField kind={form.kind} onChange={(kind) => set('kind', kind)} />
        {form.kind === 'multi-city' ? (
          <Journeys form={form} errors={errors} set={set} />
        ) : (
          <SingleTrip form={form} errors={errors} set={set} />
        )}
        <Preferences form={form} errors={errors} set={set} />
        <button type="submit" disabled={pending}>
          Search
        </button>
      </form>
      <Progress pending={pending} label="Searching…" />
      <ErrorNotice failure={failure}>
        {failure?.code !== 'VALIDATION_ERROR'
          ? undefined
          : validationSummary(errors, (path) => shownPaths(form).has(path))}
      </ErrorNotice>
      {results && !pending && <Results offers={results.offers} onSelect={select} />}
    </main>
  );
}

/** One way, return or multi-city. */
function TripKindField({ kind: chosen, onChange }: { kind: TripKind; onChange: (kind: TripKind) => void }) {
  return (
    <fieldset>
      <legend>Trip</legend>
      <div class="row">
        {(
          [
            ['one-way', 'One way'],
            ['return', 'Return'],
            ['multi-city', 'Multi-city'],
          ] as const
        ).map(([kind, label]) => (
          <label key={kind} class="inline">
            <input
              type="radio"
              name="kind"
              value={kind}
              checked={chosen === kind}
              onChange={() => onChange(kind)}
            />{' '}
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A multi-city trip's journeys, 2 to 6, each removable while more than 2 remain. */
function Journeys({ form, errors, set }: FormPart) {
  const today = todayHere();
  const setJourney = (index: number, journey: Journey) =>
    set(
      'journeys',
      form.journeys.map((j, i) => (i === index ? journey : j)),
    );
  return (
    <>
      {form.journeys.map((journey, index) => (
        <JourneyFields
          key={index}
          index={index}
          journey={journey}
          min={form.journeys[index - 1]?.date || today}
          errors={errors}
          onChange={(changed) => setJourney(index, changed)}
          onRemove={
            form.journeys.length > 2
              ? () =>
                  set(
                    'journeys',
                    form.journeys.filter((_, i) => i !== index),
                  )
              : undefined
          }
        />
      ))}
      {form.journeys.length < MAX_JOURNEYS && (
        <button
          type="button"
          class="secondary"
          onClick={() => set('journeys', [...form.journeys, emptyJourney()])}
        >
          Add journey
        </button>
      )}
      <FieldError id="slices-error" text={errors.get('slices')} />
    </>
  );
}

/** One journey of a multi-city trip: from, to and its date (not before the journey above's). */
function JourneyFields(props: {
  index: number;
  journey: Journey;
  min: string;
  errors: Map<string, string>;
  onChange: (journey: Journey) => void;
  /** Absent while only two journeys remain. */
  onRemove: (() => void) | undefined;
}) {
  const { index, journey, min, errors, onChange, onRemove } = props;
  return (
    <fieldset>
      <legend>Journey {index + 1}</legend>
      <div class="row">
        <AirportField
          id={`j${index}-from`}
          label="From"
          value={journey.from}
          onChange={(from) => onChange({ ...journey, from })}
          error={errors.get(`slices.${index}.origin`)}
        />
        <AirportField
          id={`j${index}-to`}
          label="To"
          value={journey.to}
          onChange={(to) => onChange({ ...journey, to })}
          error={errors.get(`slices.${index}.destination`)}
        />
        <DateField
          id={`j${index}-date`}
          label="Date"
          value={journey.date}
          min={min}
          onChange={(date) => onChange({ ...journey, date })}
          error={errors.get(`slices.${index}.departure_date`)}
        />
        {onRemove && (
          <button type="button" class="secondary" onClick={onRemove}>
            Remove journey {index + 1}
          </button>
        )}
      </div>
    </fieldset>
  );
}

/** A one-way or return trip: from, to, the departure date and, for a return, the return date. */
function SingleTrip({ form, errors, set }: FormPart) {
  const today = todayHere();
  return (
    <div class="row">
      <AirportField
        id="from"
        label="From"
        value={form.from}
        onChange={(from) => set('from', from)}
        error={errors.get('origin')}
      />
      <AirportField
        id="to"
        label="To"
        value={form.to}
        onChange={(to) => set('to', to)}
        error={errors.get('destination')}
      />
      <DateField
        id="date"
        label="Departure date"
        value={form.date}
        min={today}
        onChange={(date) => set('date', date)}
        error={errors.get('departure_date')}
      />
      {form.kind === 'return' && (
        <DateField
          id="return-date"
          label="Return date"
          value={form.returnDate}
          min={form.date || today}
          onChange={(returnDate) => set('returnDate', returnDate)}
          error={errors.get('return_date')}
        />
      )}
    </div>
  );
}

/** How many adults, children and infants: at most 9 seated, at most one infant per adult. */
function PassengerCounts({ form, errors, set }: FormPart) {
  const counts = (
    [
      ['adults', 'Adults', 1, 9],
      ['children', 'Children', 0, 9 - form.adults],
      ['infants', 'Infants', 0, form.adults],
    ] as const
  ).map(([key, label, min, max]) => (
    <div key={key}>
      <label for={key}>{label}</label>
      <input
        id={key}
        type="number"
        min={min}
        max={max}
        value={form[key]}
        onInput={(event) => set(key, Math.max(min, Math.trunc(Number(event.currentTarget.value)) || 0))}
        aria-invalid={errors.has(key) ? 'true' : undefined}
        aria-describedby={`${key}-error`}
      />
      <FieldError id={`${key}-error`} text={errors.get(key)} />
    </div>
  ));
  return <>{counts}</>;
}

/** Who travels (adults, children, infants) and how: cabin, connections, and the order of the results. */
function Preferences({ form, errors, set }: FormPart) {
  return (
    <div class="row">
      <PassengerCounts form={form} errors={errors} set={set} />
      <div>
        <label for="cabin">Cabin</label>
        <select
          id="cabin"
          value={form.cabin}
          onChange={(event) => set('cabin', event.currentTarget.value as SearchForm['cabin'])}
        >
          <option value="ECONOMY">Economy</option>
          <option value="PREMIUM_ECONOMY">Premium economy</option>
          <option value="BUSINESS">Business</option>
          <option value="FIRST">First</option>
        </select>
      </div>
      <div>
        <label for="connections">Connections</label>
        <select
          id="connections"
          value={String(form.maxConnections)}
          onChange={(event) => set('maxConnections', event.currentTarget.value === '0' ? 0 : 1)}
        >
          <option value="1">Up to 1 stop</option>
          <option value="0">Direct only</option>
        </select>
      </div>
      <div>
        <label for="sort">Sort by</label>
        <select
          id="sort"
          value={form.sort}
          onChange={(event) => set('sort', event.currentTarget.value as SearchForm['sort'])}
        >
          <option value="PRICE">Price</option>
          <option value="DURATION">Duration</option>
          <option value="DEPARTURE">Departure</option>
        </select>
      </div>
    </div>
  );
}

function DateField(props: {
  id: string;
  label: string;
  value: string;
  min: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { id, label, value, min, onChange, error } = props;
  return (
    <div>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="date"
        min={min}
        value={value}
        onInput={(event) => onChange(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={`${id}-error`}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return (
    <p id={id} class="field-error">
      {text}
    </p>
  );
}
