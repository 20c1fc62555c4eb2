import { baggageLine, conditionsText, holdLengthText, priceRow } from '../fare.ts';
import { formatMoney, journeyName, type Offer, type Slice, slicesOf } from '../offers.ts';
import { yourTime } from '../time.ts';

/**
 * What is being sold, where it is sold (docs/console.md): per journey its fare brand, conditions with
 * their fees and the bags included; the price per passenger type; how long a hold would last. Each
 * part shows what the offer carries (docs/API.md §4.1, turn 5) and the trip's `conditions` otherwise.
 */
export function FareDetails({ offer, holdMs }: { offer: Offer; holdMs: number | undefined }) {
  const slices = slicesOf(offer);
  const perJourney = slices.some((slice) => slice.conditions || slice.baggage || slice.fare_brand);
  return (
    <section aria-labelledby="fare-title" class="fare">
      <h2 id="fare-title">What this fare includes</h2>
      {perJourney ? (
        <ul class="plain">
          {slices.map((slice, index) => (
            <li key={index}>
              <JourneyFare slice={slice} name={journeyName(offer, index)} />
            </li>
          ))}
        </ul>
      ) : (
        <ConditionList conditions={offer.conditions} label="Whole trip" />
      )}
      <PriceBreakdown offer={offer} />
      <p>
        {holdMs === undefined
          ? 'This offer cannot be held: it departs too soon. Book it now.'
          : `A hold would last ${holdLengthText(holdMs)} (until ${yourTime(new Date(Date.now() + holdMs).toISOString())}).`}
      </p>
    </section>
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

/** The price per passenger type: base, taxes and total, as a list (no table: it fits 390 px). */
function PriceBreakdown({ offer }: { offer: Offer }) {
  const lines = offer.price_breakdown ?? [];
  if (lines.length === 0) return null;
  return (
    <>
      <h3>Price breakdown</h3>
      <ul class="plain breakdown">
        {lines.map((line) => {
          const row = priceRow(line, offer.currency);
          return (
            <li key={line.pax_type}>
              <strong>{row.who}</strong>: {row.base} fare + {row.taxes} taxes = {row.total}
            </li>
          );
        })}
        <li>
          <strong>Total: {formatMoney(offer.total_price, offer.currency)}</strong>
        </li>
      </ul>
    </>
  );
}
