import { useMemo, useState } from 'preact/hooks';
import { useZones, zoneOf } from '../airports.ts';
import { Countdown } from '../components.tsx';
import {
  airportsOf,
  carriersOf,
  DAY_PARTS,
  type Filters,
  filterOffers,
  formatMoney,
  journeyName,
  NO_FILTERS,
  type Offer,
  type Slice,
  slicesOf,
} from '../offers.ts';
import { useDraft } from '../storage.ts';
import { dayMark, daysBetween, formatDay, formatDuration, localTime } from '../time.ts';

/**
 * Search results: one `article` per offer (its name says the price), filters applied here without a
 * new search, and one countdown to the offers' expiry. Rows do no work beyond formatting their times
 * (one cached formatter per zone), and the countdown re-renders alone.
 */
export function Results({ offers, onSelect }: { offers: Offer[]; onSelect: (offer: Offer) => void }) {
  const [filters, setFilters] = useDraft<Filters>('filters', () => NO_FILTERS);
  const [expired, setExpired] = useState(false);
  const airports = useMemo(() => airportsOf(offers), [offers]);
  const zonesVersion = useZones(airports);
  const carriers = useMemo(() => carriersOf(offers), [offers]);
  const shown = useMemo(
    () => filterOffers(offers, filters, (iso, airport) => localTime(iso, zoneOf(airport)).hour),
    // Dependencies: the zones change the local hours.
    [offers, filters, zonesVersion],
  );
  const expiresAt = useMemo(
    () => offers.reduce((first, offer) => (offer.expires_at < first ? offer.expires_at : first), '9999'),
    [offers],
  );

  if (offers.length === 0)
    return (
      <p role="status" class="notice">
        No flights match this search. Try other dates, or allow a connection.
      </p>
    );

  return (
    <section aria-labelledby="results-title" class="results">
      <form class="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <h2 id="results-title">
          {shown.length === offers.length
            ? `${offers.length} offers`
            : `${shown.length} of ${offers.length} offers`}
        </h2>
        <p class="hint">
          Offers expire in{' '}
          <Countdown until={expiresAt} expired="now: they have expired" onExpired={() => setExpired(true)} />
        </p>
        <StopsFilter filters={filters} onChange={setFilters} />
        <CheckList
          legend="Airlines"
          items={carriers.map((carrier) => ({ id: carrier.code, label: carrier.name }))}
          hidden={filters.hiddenCarriers}
          onChange={(hiddenCarriers) => setFilters({ ...filters, hiddenCarriers })}
        />
        <CheckList
          legend="Departure time"
          items={DAY_PARTS}
          hidden={filters.hiddenDayParts}
          onChange={(hiddenDayParts) => setFilters({ ...filters, hiddenDayParts })}
        />
        {JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) && (
          <button type="button" class="secondary" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </form>
      <OfferList shown={shown} expired={expired} onSelect={onSelect} />
    </section>
  );
}

/** Any number of stops, direct only, or up to one. */
function StopsFilter({ filters, onChange }: { filters: Filters; onChange: (filters: Filters) => void }) {
  return (
    <fieldset>
      <legend>Stops</legend>
      {(['any', 0, 1] as const).map((value) => (
        <label key={value}>
          <input
            type="radio"
            name="stops"
            checked={filters.maxStops === value}
            onChange={() => onChange({ ...filters, maxStops: value })}
          />
          {value === 'any' ? 'Any' : value === 0 ? 'Direct only' : 'Up to 1 stop'}
        </label>
      ))}
    </fieldset>
  );
}

/** The offers the filters let through, each selectable until they expire. */
function OfferList(props: { shown: Offer[]; expired: boolean; onSelect: (offer: Offer) => void }) {
  const { shown, expired, onSelect } = props;
  return (
    <div>
      {expired && (
        <p class="notice" role="status">
          These offers have expired. Search again for current prices.
        </p>
      )}
      {shown.length === 0 && <p class="notice">No offer passes these filters.</p>}
      <ul class="offers">
        {shown.map((offer) => (
          <li key={offer.id}>
            <OfferCard offer={offer} expired={expired} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A filter of ticked items, all ticked at first; it keeps the ids left out. */
function CheckList(props: {
  legend: string;
  items: readonly { id: string; label: string }[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
}) {
  const { legend, items, hidden, onChange } = props;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.map((item) => (
        <label key={item.id}>
          <input
            type="checkbox"
            checked={!hidden.includes(item.id)}
            onChange={(event) =>
              onChange(
                event.currentTarget.checked ? hidden.filter((id) => id !== item.id) : [...hidden, item.id],
              )
            }
          />
          {item.label}
        </label>
      ))}
    </fieldset>
  );
}

/** One offer: price and carriers (its name), each journey, seats, conditions, Select. */
function OfferCard(props: { offer: Offer; expired: boolean; onSelect: (offer: Offer) => void }) {
  const { offer, expired, onSelect } = props;
  const slices = slicesOf(offer);
  const price = formatMoney(offer.total_price, offer.currency);
  const carriers = [...new Set(slices.flatMap((slice) => slice.segments.map((s) => s.carrier_name)))];
  const titleId = `offer-${offer.id}`;
  return (
    <article class="offer" aria-labelledby={titleId}>
      <div>
        <h3 id={titleId}>
          {price} · {carriers.join(', ')}
        </h3>
        {slices.map((slice, index) => (
          <SliceView key={index} slice={slice} name={journeyName(offer, index)} />
        ))}
      </div>
      <div class="side">
        <p class="meta">
          {offer.travel_class.replace('_', ' ').toLowerCase()}
          {offer.seats_available !== null && ` · ${offer.seats_available} seats left`}
        </p>
        <Conditions offer={offer} />
        <button type="button" onClick={() => onSelect(offer)} disabled={expired} aria-describedby={titleId}>
          Select
        </button>
      </div>
    </article>
  );
}

export function SliceView({ slice, name }: { slice: Slice; name: string }) {
  const first = slice.segments[0];
  if (!first) return null;
  const start = localTime(first.departure_at, zoneOf(first.origin));
  const via = slice.segments.slice(1).map((segment) => segment.origin);
  return (
    <div class="slice">
      <p class="meta">
        {name} · {formatDay(start.date)} · {formatDuration(slice.duration_minutes)} ·{' '}
        {slice.stops === 0
          ? 'Direct'
          : `${slice.stops} stop${slice.stops > 1 ? 's' : ''} (${via.join(', ')})`}
      </p>
      {slice.segments.map((segment, index) => {
        const departure = localTime(segment.departure_at, zoneOf(segment.origin));
        const arrival = localTime(segment.arrival_at, zoneOf(segment.destination));
        const previous = slice.segments[index - 1];
        const connection = previous
          ? (Date.parse(segment.departure_at) - Date.parse(previous.arrival_at)) / 60_000
          : undefined;
        return (
          <div key={segment.flight_number + segment.departure_at}>
            {connection !== undefined && (
              <p class="meta">
                Change at {segment.origin}: {formatDuration(connection)}
              </p>
            )}
            <p class="times">
              <Time at={departure} days={daysBetween(start.date, departure.date)} /> {segment.origin} →{' '}
              <Time at={arrival} days={daysBetween(start.date, arrival.date)} /> {segment.destination}
              <span class="meta">
                {' '}
                · {segment.flight_number} {segment.carrier_name} · {formatDuration(segment.duration_minutes)}
              </span>
            </p>
          </div>
        );
      })}
    </div>
  );
}

function Time({ at, days }: { at: ReturnType<typeof localTime>; days: number }) {
  const mark = dayMark(days);
  return (
    <>
      <strong>{at.time}</strong> <span class="zone">{at.zoneLabel}</span>
      {mark && (
        <span class="day" title={`${mark} day`}>
          {' '}
          {mark}
        </span>
      )}
    </>
  );
}

function Conditions({ offer }: { offer: Offer }) {
  const conditions = offer.conditions;
  if (!conditions) return null;
  const say = (
    condition: { allowed: boolean; penalty: { amount: number; currency: string } | null } | null,
    yes: string,
    no: string,
  ) => {
    if (!condition) return null;
    if (!condition.allowed) return <span class="bad">{no}</span>;
    const penalty = condition.penalty;
    return (
      <span class="good">
        {yes}
        {penalty && penalty.amount > 0 ? ` (fee ${formatMoney(penalty.amount, penalty.currency)})` : ''}
      </span>
    );
  };
  return (
    <p class="meta">
      {say(conditions.refund_before_departure, 'Refundable', 'Not refundable')}
      <br />
      {say(conditions.change_before_departure, 'Changes allowed', 'No changes')}
    </p>
  );
}
