import type { Offer, OfferAvailableService, SeatMap } from '@duffel/api/types';
import type { BagOffer } from '../../flights/bags.ts';
import { TRAVEL_CLASSES, type TravelClass } from '../../flights/cabins.ts';
import type { MapCabin, SeatFeature } from '../../flights/seat-maps.ts';
import { minorUnits } from '../../money.ts';
import type { OfferServices } from '../port.ts';

/**
 * Duffel's bags and seat maps as the service's (docs/API.md §4.10): the offer read with
 * `return_available_services=true` (its `baggage` services of type `checked`) and `GET
 * /air/seat_maps?offer_id=` (one map per segment). `passenger_index` is the passenger's place in the
 * offer's `passengers` (adults, children, infants, as the search asked), `journey_index` the slice the
 * bag's first segment is in. A seat is available when Duffel offers it to some passenger, at the first
 * such service's price; `window` and `aisle` are read from its place in the row, `exit_row` from the
 * row's exit elements. Anything in another currency than the offer's is left out.
 */
export function duffelServices(
  offer: Offer,
  seatMaps: readonly SeatMap[],
  travelClass: TravelClass,
): OfferServices {
  const passengers = offer.passengers.map((p) => p.id);
  const segments = offer.slices.flatMap((slice, journey) =>
    slice.segments.map((s) => ({ id: s.id, journey })),
  );
  const currency = offer.total_currency;
  const bags = (offer.available_services ?? []).flatMap((service): BagOffer[] =>
    bagOf(service, passengers, segments, currency),
  );
  return {
    bags,
    seatMaps: seatMaps.flatMap((map) => {
      const segmentIndex = segments.findIndex((s) => s.id === map.segment_id);
      if (segmentIndex < 0) return [];
      return [{ segmentIndex, cabins: map.cabins.map((cabin) => cabinOf(cabin, travelClass, currency)) }];
    }),
  };
}

function bagOf(
  service: OfferAvailableService,
  passengers: readonly string[],
  segments: readonly { id: string; journey: number }[],
  currency: string,
): BagOffer[] {
  if (service.type !== 'baggage' || service.metadata.type !== 'checked') return [];
  const passengerIndex = passengers.indexOf(service.passenger_ids[0] ?? '');
  const journeyIndex = segments.find((s) => s.id === service.segment_ids[0])?.journey;
  const price = service.total_currency === currency ? minorUnits(service.total_amount, currency) : undefined;
  if (passengerIndex < 0 || journeyIndex === undefined || price === undefined) return [];
  return [
    {
      id: service.id,
      journeyIndex,
      passengerIndex,
      weightKg: service.metadata.maximum_weight_kg ?? 0,
      price,
      maxQuantity: service.maximum_quantity,
    },
  ];
}

type DuffelCabin = SeatMap['cabins'][number];
type DuffelElement = DuffelCabin['rows'][number]['sections'][number]['elements'][number];

const cabinClass = (value: string): TravelClass =>
  TRAVEL_CLASSES.find((c) => c.toLowerCase() === value) ?? 'ECONOMY';

function cabinOf(cabin: DuffelCabin, travelClass: TravelClass, currency: string): MapCabin {
  const klass = cabinClass(cabin.cabin_class);
  return {
    cabin: klass,
    rows: cabin.rows.flatMap((row) => {
      const seats = row.sections.flatMap((s) => s.elements).filter((e) => e.type === 'seat');
      const number = Number(
        /^\d+/.exec((seats[0] as { designator?: string } | undefined)?.designator ?? '')?.[0],
      );
      if (!Number.isSafeInteger(number)) return [];
      const exit = row.sections.some((s) => s.elements.some((e) => e.type === 'exit_row'));
      const last = row.sections.length - 1;
      return [
        {
          number,
          sections: row.sections.map((section, s) =>
            section.elements.flatMap((element, e) =>
              elementOf(element, {
                exit,
                window:
                  (s === 0 && e === firstSeat(section.elements)) ||
                  (s === last && e === lastSeat(section.elements)),
                aisle:
                  (s > 0 && e === firstSeat(section.elements)) ||
                  (s < last && e === lastSeat(section.elements)),
                forSale: klass === travelClass,
                currency,
              }),
            ),
          ),
        },
      ];
    }),
  };
}

const firstSeat = (elements: readonly DuffelElement[]) => elements.findIndex((e) => e.type === 'seat');
const lastSeat = (elements: readonly DuffelElement[]) => elements.findLastIndex((e) => e.type === 'seat');

function elementOf(
  element: DuffelElement,
  place: { exit: boolean; window: boolean; aisle: boolean; forSale: boolean; currency: string },
): MapCabin['rows'][number]['sections'][number] {
  if (element.type === 'exit_row') return [{ type: 'exit' }];
  if (element.type === 'lavatory' || element.type === 'galley') return [{ type: element.type }];
  if (element.type !== 'seat') return [{ type: 'empty' }];
  const service = element.available_services.find((s) => s.total_currency === place.currency);
  const price = place.forSale && service ? minorUnits(service.total_amount, place.currency) : undefined;
  const features: SeatFeature[] = [];
  if (place.window) features.push('window');
  if (place.aisle) features.push('aisle');
  if (place.exit) features.push('exit_row', 'extra_legroom');
  return [
    {
      type: 'seat',
      designator: element.designator,
      available: price !== undefined,
      price: price ?? null,
      features,
    },
  ];
}
