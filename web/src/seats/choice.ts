/**
 * The bags and seats chosen on the Book screen (API.md §4.10), kept outside the screen so that the
 * seat-map code, loaded only when opened (hook.tsx), can set them and the create request can read them.
 * Cost in minor units: money is never added as floats.
 */
interface ExtrasChoice {
  readonly offerId: string;
  readonly services: readonly { id: string; quantity: number }[];
  readonly seats: readonly { segment_index: number; passenger_index: number; designator: string }[];
  readonly costMinor: number;
}

let current: ExtrasChoice | undefined;

export function setExtrasChoice(choice: ExtrasChoice | undefined): void {
  current = choice;
}

/**
 * What the create request adds for `flight`: the services and seats chosen for it and the total
 * including them; nothing for another offer or when nothing is chosen.
 */
export function chosenExtras(flight: { id: string; total_price: number }) {
  const choice = current;
  if (!choice || choice.offerId !== flight.id) return {};
  if (choice.services.length === 0 && choice.seats.length === 0) return {};
  return {
    services: [...choice.services],
    seats: [...choice.seats],
    total_price: (Math.round(flight.total_price * 100) + choice.costMinor) / 100,
  };
}
