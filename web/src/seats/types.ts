import type { Schemas } from '../api.ts';

/** offer/services as the console reads it (API.md §4.10), typed by the generated schema. */
export type Services = Schemas['OfferServicesResponse']['data'];
export type Bag = Services['bags'][number];
export type SeatMap = Services['seat_maps'][number];
type Element = SeatMap['cabins'][number]['rows'][number]['sections'][number][number];
export type Seat = Extract<Element, { type: 'seat' }>;

const minor = (money: Bag['price']) => Math.round(money.amount * 100);

export { minor };
