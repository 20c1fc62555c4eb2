import type { Offer, OfferAvailableService, Order, SeatMap } from '@duffel/api/types';
import { decimalAmount, minorUnits } from '#shared/money.ts';
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

/** One service of an order, as Duffel lists it. */
type OrderService = Order['services'][number];

/**
 * The services an order asks for (`services: [{id, quantity}]`), checked against the offer's bags and
 * seats as Duffel does: an unknown id or too many of one is a 422 `validation_error`.
 */
export function orderedServices(
  offer: Offer,
  asked: readonly { id: string; quantity: number }[],
): OrderService[] {
  const seats = standInSeatMaps(offer).flatMap((map) =>
    map.cabins.flatMap((c) =>
      c.rows.flatMap((r) =>
        r.sections.flatMap((s) =>
          s.elements.flatMap((e) =>
            e.type === 'seat'
              ? e.available_services.map((service) => ({
                  service,
                  segment: map.segment_id,
                  designator: e.designator,
                }))
              : [],
          ),
        ),
      ),
    ),
  );
  const bags = standInBags(offer);
  return asked.map(({ id, quantity }, i) => {
    const bag = bags.find((b) => b.id === id);
    const seat = seats.find((s) => s.service.id === id);
    const max = bag ? bag.maximum_quantity : 1;
    if ((!bag && !seat) || !Number.isInteger(quantity) || quantity < 1 || quantity > max)
      throw new ServiceRefusal(`services[${i}]`);
    const each =
      minorUnits(bag ? bag.total_amount : (seat?.service.total_amount ?? '0'), offer.total_currency) ?? 0;
    return {
      id,
      type: bag ? 'baggage' : 'seat',
      quantity,
      total_amount: decimalAmount(each * quantity, offer.total_currency),
      total_currency: offer.total_currency,
      passenger_ids: bag ? bag.passenger_ids : [seat?.service.passenger_id ?? ''],
      segment_ids: bag ? bag.segment_ids : [seat?.segment ?? ''],
      metadata: bag ? bag.metadata : { designator: seat?.designator ?? '', disclosures: [], name: null },
    } as OrderService;
  });
}

/** The offer as priced with `services`: its total and base grow by what they cost. */
export function withServices(offer: Offer, services: readonly OrderService[]): Offer {
  const extra = services.reduce((sum, s) => sum + (minorUnits(s.total_amount, s.total_currency) ?? 0), 0);
  const add = (amount: string) =>
    decimalAmount((minorUnits(amount, offer.total_currency) ?? 0) + extra, offer.total_currency);
  return { ...offer, total_amount: add(offer.total_amount), base_amount: add(offer.base_amount) };
}

/** An order asking for a service the offer does not sell (the stand-in answers it as Duffel's 422). */
export class ServiceRefusal extends Error {
  readonly field: string;
  constructor(field: string) {
    super('The service is not available.');
    this.field = field;
  }
}
