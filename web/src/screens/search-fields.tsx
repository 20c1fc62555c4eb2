import { AirportField } from '../airport-field.tsx';
import { DateField, FieldError } from '../components.tsx';
import { emptyJourney, type Journey, MAX_JOURNEYS, type SearchForm, type TripKind } from './search-form.ts';

/** The search form's parts: the kind of trip, its journeys or single trip, and who travels how. */
/** Sets one field of the search form. */
export type SetField = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => void;

/** What the form's parts are given: the form, its errors by request path, and a way to set a field. */
interface FormPart {
  form: SearchForm;
  errors: Map<string, string>;
  set: SetField;
}

/** One way, return or multi-city. */
export function TripKindField({
  kind: chosen,
  onChange,
}: {
  kind: TripKind;
  onChange: (kind: TripKind) => void;
}) {
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
export function Journeys({ form, errors, set }: FormPart) {
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
  errors: Map<string, string>;
  onChange: (journey: Journey) => void;
  /** Absent while only two journeys remain. */
  onRemove: (() => void) | undefined;
}) {
  const { index, journey, errors, onChange, onRemove } = props;
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
export function SingleTrip({ form, errors, set }: FormPart) {
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
        onChange={(date) => set('date', date)}
        error={errors.get('departure_date')}
      />
      {form.kind === 'return' && (
        <DateField
          id="return-date"
          label="Return date"
          value={form.returnDate}
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

/** Who travels (adults, children, infants) and how: cabin and connections (the order is chosen on the results). */
export function Preferences({ form, errors, set }: FormPart) {
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
    </div>
  );
}
