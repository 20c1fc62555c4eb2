import { baggageLine, conditionsText, holdLengthText, priceRow } from '../fare.ts';
import { formatMoney, journeyName, type Offer, type Slice, slicesOf } from '../offers.ts';
import { yourTime } from '../time.ts';

/**
 * What is being sold, where it is sold (docs/console.md): per journey its fare brand, conditions with
 * their fees and the bags included; the price per passenger type; how long a hold would last. Each
 * part shows what the offer carries (docs/API.md §4.1, turn 5) and the trip's `conditions` otherwise.
 */
export function FareDetails({ offer, holdMs }: { offer: Offer; holdMs: number | undefined }) {
  return (
    <section aria-labelledby="fare-title" class="fare">
      <h2 id="fare-title">What this fare includes</h2>
      <JourneyFares flight={offer} />
      <PriceBreakdown lines={offer.price_breakdown} total={offer.total_price} currency={offer.currency} />
      <p>
        {holdMs === undefined
          ? 'This offer cannot be held: it departs too soon. Book it now.'
          : `A hold would last ${holdLengthText(holdMs)} (until ${yourTime(new Date(Date.now() + holdMs).toISOString())}).`}
      </p>
    </section>
  );
}

/**
 * Per journey its fare brand, conditions and included bags (each an `h3`); the whole trip's
 * conditions where no journey states its own. The Book screen's offer, and a booked flight as sold.
 */
export function JourneyFares({ flight }: { flight: Offer }) {
  const slices = slicesOf(flight);
  const perJourney = slices.some((slice) => slice.conditions || slice.baggage || slice.fare_brand);
  if (!perJourney) return <ConditionList conditions={flight.conditions} label="Whole trip" />;
  return (
    <ul class="plain">
      {slices.map((slice, index) => (
        <li key={index}>
          <JourneyFare slice={slice} name={journeyName(flight, index)} />
        </li>
      ))}
    </ul>
  );
}

/** One journey's brand, conditions and included bags. */
function JourneyFare({ slice, name }: { slice: Slice; name: string }) {
  const bags = slice.baggage ?? [];
  return (
    <>
      <h3>
        {name}
        {slice.fare_brand && ` · ${slice.fare_brand}`}
      </h3>
      <ConditionList conditions={slice.conditions} label={`${name} conditions`} />
      {bags.length > 0 && <p>Bags included: {baggageLine(bags)}</p>}
    </>
  );
}

function ConditionList({
  conditions,
  label,
}: {
  conditions: Offer['conditions'] | null | undefined;
  label: string;
}) {
  const said = conditionsText(conditions);
  if (said.length === 0) return null;
  return (
    <ul aria-label={label} class="plain conditions">
      {said.map((item) => (
        <li key={item.text} class={item.good ? 'good' : 'bad'}>
          {item.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * The price per passenger type: base, taxes and total, as a list (no table: it fits 390 px); a
 * booking's bag and seat rows by their total. `–` where the supplier does not state an amount.
 */
export function PriceBreakdown(props: {
  lines: readonly Parameters<typeof priceRow>[0][] | undefined;
  total: number;
  currency: string;
}) {
  const lines = props.lines ?? [];
  if (lines.length === 0) return null;
  return (
    <>
      <h3>Price breakdown</h3>
      <ul class="plain breakdown">
        {lines.map((line, index) => {
          const row = priceRow(line, props.currency);
          return (
            <li key={index}>
              <strong>{row.who}</strong>:{' '}
              {row.service ? row.total : `${row.base} fare + ${row.taxes} taxes = ${row.total}`}
            </li>
          );
        })}
        <li>
          <strong>Total: {formatMoney(props.total, props.currency)}</strong>
        </li>
      </ul>
    </>
  );
}
