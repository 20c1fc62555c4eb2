import { useMemo, useRef, useState } from 'preact/hooks';
import { formatMoney } from '../offers.ts';
import type { Seat, SeatMap } from './types.ts';

/** A seat's accessible name: `Seat 12A, window, extra legroom, €25` (or `taken`). */
function seatName(seat: Seat): string {
  const features = seat.features.map((f) => f.replace('_', ' '));
  const price = seat.price
    ? seat.price.amount === 0
      ? 'included'
      : formatMoney(seat.price.amount, seat.price.currency)
    : 'taken';
  return [`Seat ${seat.designator}`, ...features, price].join(', ');
}

interface Cell {
  seat: Seat;
  row: number;
  column: number;
}

/** Every seat of the map with its row (0…) and column across (aisles count as a column). */
function cellsOf(map: SeatMap): Cell[][] {
  let row = 0;
  const rows: Cell[][] = [];
  for (const cabin of map.cabins)
    for (const line of cabin.rows) {
      const cells: Cell[] = [];
      let column = 0;
      line.sections.forEach((section, s) => {
        if (s > 0) column += 1;
        for (const element of section) {
          if (element.type === 'exit') continue;
          if (element.type === 'seat') cells.push({ seat: element, row, column });
          column += 1;
        }
      });
      rows.push(cells);
      row += 1;
    }
  return rows;
}

/** The next open seat from `from` in a direction, or undefined at the edge. */
function step(rows: Cell[][], from: Cell, key: string): Cell | undefined {
  const open = (c: Cell | undefined) => c?.seat.available;
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const across = rows[from.row] ?? [];
    const at = across.indexOf(from);
    const by = key === 'ArrowLeft' ? -1 : 1;
    for (let i = at + by; i >= 0 && i < across.length; i += by) if (open(across[i])) return across[i];
    return undefined;
  }
  const by = key === 'ArrowUp' ? -1 : 1;
  for (let r = from.row + by; r >= 0 && r < rows.length; r += by) {
    const candidates = (rows[r] ?? []).filter(open);
    if (candidates.length === 0) continue;
    return candidates.reduce((best, c) =>
      Math.abs(c.column - from.column) < Math.abs(best.column - from.column) ? c : best,
    );
  }
  return undefined;
}

/**
 * One segment's seat map: the cabin drawn row by row, each seat a button named like `Seat 12A, window,
 * €25` (taken seats disabled), one tab stop for the whole map (roving tabindex) and the arrow keys
 * moving between open seats.
 */
export function SeatMapView(props: {
  map: SeatMap;
  label: string;
  chosen: ReadonlyMap<string, string>;
  onPick: (seat: Seat) => void;
}) {
  const rows = useMemo(() => cellsOf(props.map), [props.map]);
  const first = rows.flat().find((c) => c.seat.available);
  const [focused, setFocused] = useState(first?.seat.designator);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const move = (event: KeyboardEvent, cell: Cell) => {
    if (!event.key.startsWith('Arrow')) return;
    event.preventDefault();
    const next = step(rows, cell, event.key);
    if (!next) return;
    setFocused(next.seat.designator);
    buttons.current.get(next.seat.designator)?.focus();
  };
  let index = 0;
  return (
    <fieldset aria-label={props.label} class="seat-map">
      {props.map.cabins.map((cabin) => (
        <div class="cabin" key={cabin.cabin}>
          <p class="cabin-name">{cabin.cabin.replace('_', ' ').toLowerCase()}</p>
          {cabin.rows.map((line) => {
            const cells = rows[index++] ?? [];
            return (
              <SeatRow
                key={line.number}
                line={line}
                cells={cells}
                focused={focused}
                chosen={props.chosen}
                buttons={buttons.current}
                onPick={props.onPick}
                onMove={move}
                onFocus={setFocused}
              />
            );
          })}
        </div>
      ))}
    </fieldset>
  );
}

/** One seat: its letter shown, its full name said, pressed when chosen, disabled when taken. */
function SeatButton(props: {
  seat: Seat;
  chosen: boolean;
  focused: boolean;
  buttons: Map<string, HTMLButtonElement>;
  onPick: (seat: Seat) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  onFocus: () => void;
}) {
  const { seat } = props;
  return (
    <button
      type="button"
      ref={(el) => {
        if (el) props.buttons.set(seat.designator, el);
      }}
      class={`seat${seat.features.includes('extra_legroom') ? ' extra' : ''}`}
      aria-label={seatName(seat)}
      aria-pressed={props.chosen}
      disabled={!seat.available}
      tabIndex={props.focused ? 0 : -1}
      onClick={() => props.onPick(seat)}
      onKeyDown={props.onKeyDown}
      onFocus={props.onFocus}
    >
      {seat.designator.replace(/^\d+/, '')}
    </button>
  );
}

/** One row: its number (the seats' names carry it), then its sections, aisles between them. */
function SeatRow(props: {
  line: SeatMap['cabins'][number]['rows'][number];
  cells: Cell[];
  focused: string | undefined;
  chosen: ReadonlyMap<string, string>;
  buttons: Map<string, HTMLButtonElement>;
  onPick: (seat: Seat) => void;
  onMove: (event: KeyboardEvent, cell: Cell) => void;
  onFocus: (designator: string) => void;
}) {
  return (
    <div class="seat-row">
      <span class="row-number" aria-hidden="true">
        {props.line.number}
      </span>
      {props.line.sections.map((section, s) => (
        <span class="seat-section" key={s}>
          {section.map((element, e) => {
            if (element.type !== 'seat')
              return <span key={e} class={`seat-gap ${element.type}`} aria-hidden="true" />;
            return (
              <SeatButton
                key={element.designator}
                seat={element}
                chosen={props.chosen.has(element.designator)}
                focused={element.designator === props.focused}
                buttons={props.buttons}
                onPick={props.onPick}
                onKeyDown={(event) => {
                  const cell = props.cells.find((c) => c.seat === element);
                  if (cell) props.onMove(event, cell);
                }}
                onFocus={() => props.onFocus(element.designator)}
              />
            );
          })}
        </span>
      ))}
    </div>
  );
}
