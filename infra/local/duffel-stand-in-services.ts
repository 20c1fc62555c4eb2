import type { Offer, OfferAvailableService, SeatMap } from '@duffel/api/types';
import { duffelId } from './duffel-stand-in-data.ts';

/**
 * What the Duffel stand-in sells beside an offer, shaped as Duffel documents it: a checked bag per
 * passenger and slice in the offer's `available_services` (read with `return_available_services=true`)
 * and a seat map per segment (`GET /air/seat_maps?offer_id=`): one economy cabin, rows 10–14 `ABC DEF`
 * with an exit at row 12, every seat sold to each passenger with a seat for 12.00 but 10A and 11C
 * (taken: no services). Made from the offer's ids, so asking twice answers the same.
 */
export function standInBags(offer: Offer): OfferAvailableService[] {
  return offer.slices.flatMap((slice) =>
    offer.passengers.map((passenger) => ({
      id: `ase_bag_${slice.id}_${passenger.id}`,
      type: 'baggage' as const,
      maximum_quantity: 2,
      passenger_ids: [passenger.id],
      segment_ids: slice.segments.map((s) => s.id),
      total_amount: '35.00',
      total_currency: offer.total_currency,
      metadata: {
        type: 'checked' as const,
        maximum_weight_kg: 23,
        maximum_height_cm: null,
        maximum_length_cm: null,
        maximum_depth_cm: null,
      },
    })),
  );
}

const TAKEN = new Set(['10A', '11C']);

export function standInSeatMaps(offer: Offer): SeatMap[] {
  const seated = offer.passengers.filter((p) => p.type !== 'infant_without_seat');
  return offer.slices.flatMap((slice) =>
    slice.segments.map((segment) => ({
      id: duffelId('sea'),
      slice_id: slice.id,
      segment_id: segment.id,
      cabins: [
        {
          deck: 0,
          cabin_class: 'economy',
          wings: { first_row_index: 1, last_row_index: 3 },
          aisles: 1,
          rows: [10, 11, 12, 13, 14].map((row) => ({
            sections: ['ABC', 'DEF'].map((letters, s) => {
              const seats = [...letters].map((letter) => {
                const designator = `${row}${letter}`;
                return {
                  type: 'seat' as const,
                  designator,
                  disclosures: [],
                  available_services: TAKEN.has(designator)
                    ? []
                    : seated.map((p) => ({
                        id: `ase_seat_${segment.id}_${designator}_${p.id}`,
                        passenger_id: p.id,
                        total_amount: '12.00',
                        total_currency: offer.total_currency,
                      })),
                };
              });
              const exit = { type: 'exit_row' as const };
              if (row !== 12) return { elements: seats };
              return { elements: s === 0 ? [exit, ...seats] : [...seats, exit] };
            }),
          })),
        },
      ],
    })),
  );
}
