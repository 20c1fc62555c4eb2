import { useEffect, useRef, useState } from 'preact/hooks';
import { type Airport, rememberAirports, searchAirports } from './airports.ts';

/** How long typing must pause before suggestions are asked for. */
const DEBOUNCE_MS = 150;

/**
 * Suggestions for what is typed: debounced, and a newer question aborts the older one, so typing never
 * waits and a slow stale answer never shows.
 */
function useSuggestions() {
  const [options, setOptions] = useState<Airport[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inFlight = useRef<AbortController>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const ask = (query: string) => {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    if (query.trim() === '') {
      setOptions([]);
      setOpen(false);
      return;
    }
    timer.current = setTimeout(async () => {
      const controller = new AbortController();
      inFlight.current = controller;
      const outcome = await searchAirports(query.trim(), { signal: controller.signal });
      if (controller.signal.aborted || !outcome.ok) return;
      setOptions(outcome.body.data);
      // The first suggestion is highlighted: Tab or Enter takes it ("Heathrow", Tab → LHR).
      setActive(0);
      setOpen(outcome.body.data.length > 0);
    }, DEBOUNCE_MS);
  };
  /**
   * The arrows move through the suggestions, Enter or Tab takes the highlighted one (`pick`; Tab then
   * moves on as ever), Escape closes them.
   */
  const onKeyDown = (event: KeyboardEvent, pick: (airport: Airport) => void) => {
    if (event.key === 'ArrowDown' && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((active + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive(active <= 0 ? options.length - 1 : active - 1);
    } else if (event.key === 'Enter' && open && options[active]) {
      event.preventDefault();
      pick(options[active]);
    } else if (event.key === 'Tab' && !event.shiftKey && open && options[active]) {
      pick(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };
  return { options, open, setOpen, active, setActive, ask, onKeyDown };
}

/** The suggestions' listbox; a suggestion is picked with the mouse without the input losing focus. */
function Suggestions(props: {
  listId: string;
  label: string;
  options: Airport[];
  open: boolean;
  active: number;
  onPick: (airport: Airport) => void;
}) {
  const { listId, label, options, open, active, onPick } = props;
  return (
    <div id={listId} role="listbox" aria-label={`${label} suggestions`} hidden={!open}>
      {options.map((airport, index) => (
        <div
          key={airport.code}
          id={`${listId}-${index}`}
          role="option"
          tabIndex={-1}
          aria-selected={index === active}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(airport);
          }}
        >
          <strong>{airport.code}</strong> {airport.name}, {airport.city} ({airport.country})
        </div>
      ))}
    </div>
  );
}

/**
 * An airport field with suggestions as you type (WAI-ARIA combobox with a listbox): debounced, and a
 * newer question aborts the older one, so typing never waits and a slow stale answer never shows.
 * The value is what the agent typed or picked; a picked suggestion sets its IATA code.
 */
export function AirportField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const { id, label, value, onChange, error } = props;
  const { options, open, setOpen, active, setActive, ask, onKeyDown } = useSuggestions();
  const [picked, setPicked] = useState<Airport>();
  const pick = (airport: Airport) => {
    rememberAirports([airport]);
    setPicked(airport);
    onChange(airport.code);
    setOpen(false);
    setActive(-1);
  };

  const listId = `${id}-list`;
  const shown = picked && picked.code === value ? picked : undefined;
  return (
    <div class="combo">
      <label for={id}>{label}</label>
      <input
        id={id}
        role="combobox"
        autoComplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={`${id}-hint`}
        value={value}
        onInput={(event) => {
          const text = event.currentTarget.value;
          onChange(text);
          ask(text);
        }}
        onKeyDown={(event) => onKeyDown(event, pick)}
        onBlur={() => setOpen(false)}
      />
      <Suggestions
        listId={listId}
        label={label}
        options={options}
        open={open}
        active={active}
        onPick={pick}
      />
      <p id={`${id}-hint`} class={error ? 'field-error' : 'hint'}>
        {error ?? (shown ? `${shown.name}, ${shown.city}` : 'City, airport or code')}
      </p>
    </div>
  );
}
