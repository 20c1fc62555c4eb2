import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { client, type Failure, settle } from '../api.ts';
import { ErrorNotice, Progress } from '../components.tsx';
import { formatMoney, journeyName, type Offer, passengerTypes, slicesOf } from '../offers.ts';
import { setExtrasChoice } from './choice.ts';
import { SeatMapView } from './seat-map.tsx';
import { type Bag, minor, type Seat, type Services } from './types.ts';

type SeatChoice = { segment_index: number; passenger_index: number; designator: string; price: number };

const PAX = { ADULT: 'adult', CHILD: 'child', INFANT: 'infant' } as const;

/**
 * Bags per passenger and journey, and a seat map per segment, for the offer on the Book screen
 * (CONSOLE.md, "Bags and seats"); every choice goes to choice.ts, which the create request reads.
 */
export function ExtrasPanel({ offer }: { offer: Offer }) {
  const [services, setServices] = useState<Services>();
  const [failure, setFailure] = useState<Failure>();
  const [bags, setBags] = useState<Record<string, number>>({});
  const [seats, setSeats] = useState<SeatChoice[]>([]);
  useEffect(() => {
    void settle(client.POST('/api/flights/offer/services', { body: { flight_id: offer.id } })).then((o) =>
      o.ok ? setServices(o.body.data) : setFailure(o.failure),
    );
  }, [offer.id]);
  const offered = services?.bags ?? [];
  const cost =
    offered.reduce((sum, bag) => sum + minor(bag.price) * (bags[bag.id] ?? 0), 0) +
    seats.reduce((sum, s) => sum + s.price, 0);
  // In the commit that shows a choice, not after the next paint: a Book pressed the moment a seat
  // shows (or while a loaded machine delays the paint) must send that seat.
  useLayoutEffect(() => {
    setExtrasChoice({
      offerId: offer.id,
      services: Object.entries(bags)
        .filter(([, quantity]) => quantity > 0)
        .map(([id, quantity]) => ({ id, quantity })),
      seats: seats.map(({ price: _, ...seat }) => seat),
      costMinor: cost,
    });
  }, [offer.id, bags, seats, cost]);

  if (failure) return <ErrorNotice failure={failure}>{failure.message}</ErrorNotice>;
  if (!services) return <Progress pending={true} label="Loading bags and seats…" />;
  const types = passengerTypes(offer.passengers);
  const total = (Math.round(offer.total_price * 100) + cost) / 100;
  return (
    <section aria-label="Bags and seats" class="extras">
      <h2>Bags and seats</h2>
      <BagFields offer={offer} bags={offered} chosen={bags} onChange={setBags} />
      {services.seat_maps.map((map) => (
        <SegmentSeats
          key={map.segment_index}
          offer={offer}
          map={map}
          types={types}
          seats={seats}
          onChange={setSeats}
        />
      ))}
      <p class="extras-total" aria-live="polite">
        Total with bags and seats: <strong>{formatMoney(total, offer.currency)}</strong>
      </p>
    </section>
  );
}

function BagFields(props: {
  offer: Offer;
  bags: Bag[];
  chosen: Record<string, number>;
  onChange: (bags: Record<string, number>) => void;
}) {
  const types = passengerTypes(props.offer.passengers);
  return (
    <fieldset>
      <legend>Checked bags</legend>
      {props.bags.map((bag) => {
        const type = types[bag.passenger_index];
        const who = `Passenger ${bag.passenger_index + 1}${type ? ` (${PAX[type]})` : ''}`;
        const id = `bag-${bag.id}`;
        return (
          <div class="field" key={bag.id}>
            <label for={id}>
              {`${who}, ${journeyName(props.offer, bag.journey_index)}: ${bag.weight_kg} kg bags, ${formatMoney(bag.price.amount, bag.price.currency)} each`}
            </label>
            <select
              id={id}
              value={String(props.chosen[bag.id] ?? 0)}
              onChange={(event) =>
                props.onChange({
                  ...props.chosen,
                  [bag.id]: Number((event.target as HTMLSelectElement).value),
                })
              }
            >
              {Array.from({ length: bag.max_quantity + 1 }, (_, n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        );
      })}
    </fieldset>
  );
}

/** The segment's name: `Flight 1: BA117 LHR–JFK`. */
function segmentName(offer: Offer, index: number): string {
  const segment = slicesOf(offer).flatMap((s) => s.segments)[index];
  return `Flight ${index + 1}${segment ? `: ${segment.flight_number} ${segment.origin}–${segment.destination}` : ''}`;
}

function SegmentSeats(props: {
  offer: Offer;
  map: Services['seat_maps'][number];
  types: string[];
  seats: SeatChoice[];
  onChange: (seats: SeatChoice[]) => void;
}) {
  const segment = props.map.segment_index;
  const seated = props.types.flatMap((type, i) => (type === 'INFANT' ? [] : [i]));
  const [choosing, setChoosing] = useState(seated[0] ?? 0);
  const here = props.seats.filter((s) => s.segment_index === segment);
  const chosen = new Map(here.map((s) => [s.designator, `Passenger ${s.passenger_index + 1}`]));
  const name = segmentName(props.offer, segment);
  const pick = (seat: Seat) => {
    const others = props.seats.filter(
      (s) =>
        !(
          s.segment_index === segment &&
          (s.passenger_index === choosing || s.designator === seat.designator)
        ),
    );
    const price = seat.price ? minor(seat.price) : 0;
    props.onChange([
      ...others,
      { segment_index: segment, passenger_index: choosing, designator: seat.designator, price },
    ]);
    const next = seated.find((p) => p !== choosing && !here.some((s) => s.passenger_index === p));
    if (next !== undefined) setChoosing(next);
  };
  return (
    <fieldset class="segment-seats">
      <legend>Seats, {name}</legend>
      <Choosing
        name={name}
        seated={seated}
        types={props.types}
        choosing={choosing}
        onChange={setChoosing}
        segment={segment}
      />
      <Legend />
      <SeatMapView map={props.map} label={`Seat map, ${name}`} chosen={chosen} onPick={pick} />
      <ChosenSeats name={name} seated={seated} here={here} currency={props.offer.currency} />
    </fieldset>
  );
}

/** Whose seat the map chooses now: one radio per passenger with a seat. */
function Choosing(props: {
  name: string;
  segment: number;
  seated: number[];
  types: string[];
  choosing: number;
  onChange: (passenger: number) => void;
}) {
  return (
    <div role="radiogroup" aria-label={`Choosing a seat for, ${props.name}`} class="choosing">
      {props.seated.map((p) => (
        <label key={p}>
          <input
            type="radio"
            name={`choosing-${props.segment}`}
            checked={props.choosing === p}
            onChange={() => props.onChange(p)}
          />
          {` Passenger ${p + 1} (${PAX[props.types[p] as keyof typeof PAX]})`}
        </label>
      ))}
    </div>
  );
}

/** The seat chosen for each passenger on the segment, with its price. */
function ChosenSeats(props: { name: string; seated: number[]; here: SeatChoice[]; currency: string }) {
  return (
    <ul aria-label={`Chosen seats, ${props.name}`} class="chosen-seats">
      {props.seated.map((p) => {
        const seat = props.here.find((s) => s.passenger_index === p);
        return (
          <li key={p}>
            {`Passenger ${p + 1}: `}
            {seat
              ? `${seat.designator}, ${seat.price === 0 ? 'included' : formatMoney(seat.price / 100, props.currency)}`
              : 'no seat chosen'}
          </li>
        );
      })}
    </ul>
  );
}

function Legend() {
  return (
    <ul class="seat-legend" aria-label="Legend">
      <li>
        <span class="seat swatch" aria-hidden="true" /> Available
      </li>
      <li>
        <span class="seat extra swatch" aria-hidden="true" /> Extra legroom
      </li>
      <li>
        <span class="seat swatch chosen" aria-hidden="true" /> Chosen
      </li>
      <li>
        <span class="seat swatch taken" aria-hidden="true" /> Taken
      </li>
    </ul>
  );
}
