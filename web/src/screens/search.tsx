import { useEffect, useRef, useState } from 'preact/hooks';
import { loadZones } from '../airports.ts';
import { client, fieldErrors, settle, validationSummary } from '../api.ts';
import { ErrorNotice, focusFirstInvalid, Progress } from '../components.tsx';
import { NO_FILTERS, type Offer } from '../offers.ts';
import { navigate, type Place } from '../router.ts';
import { readStored, useDraft, writeStored } from '../storage.ts';
import { useCall } from '../use-call.ts';
import { Results } from './results.tsx';
import { Journeys, Preferences, type SetField, SingleTrip, TripKindField } from './search-fields.tsx';
import {
  checkForm,
  code,
  initialForm,
  multiCityRequest,
  NOTICE_KEY,
  OFFER_KEY,
  RESULTS_KEY,
  type SearchForm,
  type StoredResults,
  shownPaths,
  tripRequest,
} from './search-form.ts';

/**
 * The search itself, through the form's call hook: checked on the page first (focus on the first wrong
 * field), then asked of the service with the searched airports' zones beside it; the offers kept for
 * the tab once on screen, the service's field errors shown by their fields. `searches` counts the
 * answers, so the results take the focus after each search (not after a reload).
 */
function useSearch(form: SearchForm, formElement: { current: HTMLFormElement | null }) {
  const [results, setResults] = useState<StoredResults | undefined>(() => readStored(RESULTS_KEY));
  const [checked, setChecked] = useState<Map<string, string>>(new Map());
  const [searches, setSearches] = useState(0);
  const { pending, failure, run } = useCall();

  const submit = async (event: Event) => {
    event.preventDefault();
    const found = checkForm(form);
    setChecked(found);
    if (found.size > 0) return focusFirstInvalid(formElement.current);
    // The searched airports' zones are asked for beside the search, so their times show local at once.
    const searched =
      form.kind === 'multi-city' ? form.journeys.flatMap((j) => [j.from, j.to]) : [form.from, form.to];
    void loadZones(searched.map(code));
    const body = form.kind === 'multi-city' ? multiCityRequest(form) : tripRequest(form);
    const outcome = await run(() => settle(client.POST('/api/flights/search', { body })));
    if (!outcome) return;
    if (!outcome.ok) return focusFirstInvalid(formElement.current);
    const stored: StoredResults = { offers: outcome.body.data as Offer[] };
    writeStored('filters', NO_FILTERS);
    setResults(stored);
    setSearches((n) => n + 1);
    // Kept for a reload or the way back from /book, once the offers are on screen (not before them).
    setTimeout(() => writeStored(RESULTS_KEY, stored), 0);
  };
  const errors = checked.size > 0 ? checked : fieldErrors(failure);
  return { results, errors, failure, pending, submit, searches };
}

/** A message the book screen left for the results (an offer sold out or expired), shown once. */
function useNotice(): string | undefined {
  const [notice] = useState<string | undefined>(() => readStored<string>(NOTICE_KEY));
  useEffect(() => writeStored(NOTICE_KEY, undefined), []);
  return notice;
}

/**
 * Search (docs/console.md): the form (search-fields.tsx, its data in search-form.ts), then the results
 * (results.tsx), with a skip link past the form to them.
 */
export function SearchScreen(_props: { place: Place }) {
  const [form, setForm] = useDraft<SearchForm>('search', initialForm);
  const formElement = useRef<HTMLFormElement>(null);
  const notice = useNotice();
  const { results, errors, failure, pending, submit, searches } = useSearch(form, formElement);
  const set: SetField = (key, value) => setForm({ ...form, [key]: value });
  const select = (offer: Offer) => {
    writeStored(OFFER_KEY, offer);
    navigate('/book');
  };

  return (
    <main id="main">
      {results && !pending && (
        <a class="skip" href="#results-title">
          Skip to results
        </a>
      )}
      <h1 tabIndex={-1}>Search flights</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form ref={formElement} onSubmit={submit} noValidate aria-label="Search flights">
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
      {results && !pending && <Results offers={results.offers} onSelect={select} focusAfter={searches} />}
    </main>
  );
}
