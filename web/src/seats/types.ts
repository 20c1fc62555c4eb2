/** offer/services as the console reads it (API.md §4.10). */
interface Money {
  amount: number;
  currency: string;
}
export interface Bag {
  id: string;
  journey_index: number;
  passenger_index: number;
  kind: 'checked';
  weight_kg: number;
  price: Money;
  max_quantity: number;
}
export interface Seat {
  type: 'seat';
  designator: string;
  available: boolean;
  price: Money | null;
  features: string[];
}
type Element = Seat | { type: 'empty' | 'exit' | 'lavatory' | 'galley' };
export interface SeatMap {
  segment_index: number;
  cabins: { cabin: string; rows: { number: number; sections: Element[][] }[] }[];
}
export interface Services {
  bags: Bag[];
  seat_maps: SeatMap[];
}

const minor = (money: Money) => Math.round(money.amount * 100);

export { minor };
