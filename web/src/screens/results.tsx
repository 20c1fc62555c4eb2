import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useZones, zoneOf } from '../airports.ts';
import { Countdown } from '../components.tsx';
import { conditionsText } from '../fare.ts';
import {
  airportsOf,
  carriersOf,
  type Filters,
  filterOffers,
  formatMoney,
  journeyName,
  NO_FILTERS,
  type Offer,
  type Slice,
  type Sort,
  slicesOf,
  sortOffers,
} from '../offers.ts';
import { useDraft } from '../storage.ts';
import { dayMark, daysBetween, formatDay, formatDuration, localTime } from '../time.ts';
import { FilterPanel } from './result-filters.tsx';
import { SORT_KEY } from './search-form.ts';

/**
 * Search results, dense (docs/console.md): one row per offer (its name says the price) that expands
 * for its details; sort and filters (result-filters.tsx) applied here without a new search and without
 * resetting each other; the count announced; the heading takes the focus after each search
 * (`focusAfter` changes). Rows do no work beyond formatting their times (one cached formatter per
 * zone), and the countdown re-renders alone.
 */
export function Results(props: { offers: Offer[]; onSelect: (offer: Offer) => void; focusAfter: number }) {
  const { offers, onSelect, focusAfter } = props;
  const [filters, setFilters] = useDraft<Filters>('filters', () => NO_FILTERS);
  const [sort, setSort] = useDraft<Sort>(SORT_KEY, () => 'PRICE');
  const [expired, setExpired] = useState(false);
  const airports = useMemo(() => airportsOf(offers), [offers]);
  const zonesVersion = useZones(airports);
  const carriers = useMemo(() => carriersOf(offers), [offers]);
  const sorted = useMemo(() => sortOffers(offers, sort), [offers, sort]);
  const shown = useMemo(
    () => filterOffers(sorted, filters, (iso, airport) => localTime(iso, zoneOf(airport)).hour),
    // Dependencies: the zones change the local hours.
    [sorted, filters, zonesVersion],
  );
  const expiresAt = useMemo(
    () => offers.reduce((first, offer) => (offer.expires_at < first ? offer.expires_at : first), '9999'),
    [offers],
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusAfter > 0) heading.current?.focus();
  }, [focusAfter]);

  if (offers.length === 0)
    return (
      <p role="status" class="notice">
        No flights match this search. Try other dates, or allow a connection.
      </p>
    );
  const count =
    shown.length === offers.length ? `${offers.length} offers` : `${shown.length} of ${offers.length} offers`;
  return (
    <section aria-labelledby="results-title" class="results">
      <div class="results-head">
        <h2 id="results-title" tabIndex={-1} ref={heading}>
          {count}
        </h2>
        <p class="visually-hidden" role="status">
          {count} shown
        </p>
        <p class="hint">
          Offers expire in{' '}
          <Countdown until={expiresAt} expired="now: they have expired" onExpired={() => setExpired(true)} />
        </p>
      </div>
      <FilterPanel
        carriers={carriers}
        filters={filters}
        onFilters={setFilters}
        sort={sort}
        onSort={setSort}
      />
      <OfferList shown={shown} expired={expired} onSelect={onSelect} />
    </section>
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
            <OfferRow offer={offer} expired={expired} onSelect={onSelect} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * One offer in a row: each journey in a line (times, airports, duration, stops), the price and
 * carriers (its name), Details and Select; Details opens the segments, seats and conditions.
 */
function OfferRow(props: { offer: Offer; expired: boolean; onSelect: (offer: Offer) => void }) {
  const { offer, expired, onSelect } = props;
  const [open, setOpen] = useState(false);
  const slices = slicesOf(offer);
  const carriers = [...new Set(slices.flatMap((slice) => slice.segments.map((s) => s.carrier_name)))];
  const titleId = `offer-${offer.id}`;
  const detailsId = `details-${offer.id}`;
  return (
    <article class="offer" aria-labelledby={titleId}>
      <div class="lines">
        {slices.map((slice, index) => (
          <SliceLine
            key={index}
            slice={slice}
            name={slices.length > 1 ? journeyName(offer, index) : undefined}
          />
        ))}
      </div>
      <h3 id={titleId}>
        {formatMoney(offer.total_price, offer.currency)} <span class="meta">{carriers.join(', ')}</span>
      </h3>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          Details<span class="visually-hidden"> of {formatMoney(offer.total_price, offer.currency)}</span>
        </button>
        <button type="button" onClick={() => onSelect(offer)} disabled={expired} aria-describedby={titleId}>
          Select
        </button>
      </div>
      {open && (
        <div id={detailsId} class="details">
          {slices.map((slice, index) => (
            <SliceView key={index} slice={slice} name={journeyName(offer, index)} />
          ))}
          <p class="meta">
            {offer.travel_class.replace('_', ' ').toLowerCase()}
            {offer.seats_available !== null && ` · ${offer.seats_available} seats left`}
          </p>
          <Conditions offer={offer} />
        </div>
      )}
    </article>
  );
}

/** A journey in one line: `08:05 GMT LHR → 11:20 EST +1 JFK · 7h 15m · 1 stop (CDG)`. */
function SliceLine({ slice, name }: { slice: Slice; name: string | undefined }) {
  const first = slice.segments[0];
  const last = slice.segments[slice.segments.length - 1];
  if (!first || !last) return null;
  const start = localTime(first.departure_at, zoneOf(first.origin));
  const end = localTime(last.arrival_at, zoneOf(last.destination));
  const via = slice.segments.slice(1).map((segment) => segment.origin);
  return (
    <p class="times">
      <span class="meta">{name ? `${name} · ${formatDay(start.date)}` : formatDay(start.date)}</span>{' '}
      <Time at={start} days={0} /> {first.origin} → <Time at={end} days={daysBetween(start.date, end.date)} />{' '}
      {last.destination}
      <span class="meta">
        {' '}
        · {formatDuration(slice.duration_minutes)} ·{' '}
        {slice.stops === 0
          ? 'Direct'
          : `${slice.stops} stop${slice.stops > 1 ? 's' : ''} (${via.join(', ')})`}{' '}
        · {slice.segments.map((segment) => segment.flight_number).join(', ')}
      </span>
    </p>
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

/** The whole trip's conditions in a line each (fare.ts). */
function Conditions({ offer }: { offer: Offer }) {
  return (
    <p class="meta">
      {conditionsText(offer.conditions).map((said) => (
        <span key={said.text} class={said.good ? 'good' : 'bad'}>
          {said.text}
          <br />
        </span>
      ))}
    </p>
  );
}
