import { DAY_PARTS, type Filters, NO_FILTERS, onlyCarrier, type Sort } from '../offers.ts';

/**
 * The results' order and filters, applied at once without a new search (docs/console.md, Dense
 * results): changing one never resets another; "Only" keeps one airline with one press.
 */
export function FilterPanel(props: {
  carriers: { code: string; name: string }[];
  filters: Filters;
  onFilters: (filters: Filters) => void;
  sort: Sort;
  onSort: (sort: Sort) => void;
}) {
  const { carriers, filters, onFilters, sort, onSort } = props;
  return (
    <form class="filters" aria-label="Sort and filters" onSubmit={(event) => event.preventDefault()}>
      <label for="results-sort">Sort by</label>
      <select id="results-sort" value={sort} onChange={(event) => onSort(event.currentTarget.value as Sort)}>
        <option value="PRICE">Price</option>
        <option value="DURATION">Duration</option>
        <option value="DEPARTURE">Departure</option>
      </select>
      <StopsFilter filters={filters} onChange={onFilters} />
      <CheckList
        legend="Airlines"
        items={carriers.map((carrier) => ({ id: carrier.code, label: carrier.name }))}
        hidden={filters.hiddenCarriers}
        onChange={(hiddenCarriers) => onFilters({ ...filters, hiddenCarriers })}
        only={(code) => onFilters({ ...filters, hiddenCarriers: onlyCarrier(carriers, code) })}
      />
      <CheckList
        legend="Departure time"
        items={DAY_PARTS}
        hidden={filters.hiddenDayParts}
        onChange={(hiddenDayParts) => onFilters({ ...filters, hiddenDayParts })}
      />
      {JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) && (
        <button type="button" class="secondary" onClick={() => onFilters(NO_FILTERS)}>
          Clear filters
        </button>
      )}
    </form>
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

/** A filter of ticked items, all ticked at first; it keeps the ids left out. `only` keeps one item. */
function CheckList(props: {
  legend: string;
  items: readonly { id: string; label: string }[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
  only?: (id: string) => void;
}) {
  const { legend, items, hidden, onChange, only } = props;
  return (
    <fieldset>
      <legend>{legend}</legend>
      {items.map((item) => (
        <div key={item.id} class="check">
          <label>
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
          {only && items.length > 1 && (
            <button type="button" class="link" onClick={() => only(item.id)}>
              Only<span class="visually-hidden"> {item.label}</span>
            </button>
          )}
        </div>
      ))}
    </fieldset>
  );
}
