import type {} from '@duffel/api';
import type { CreateOrderPassenger, OfferPassenger } from '@duffel/api/types';
import { type ApiError, SoldOutError, ValidationError } from '../../errors.ts';
import type { OrderPassenger, OrderRequest } from '../port.ts';

const DUFFEL_TYPE = { ADULT: 'adult', CHILD: 'child', INFANT: 'infant_without_seat' } as const;
const typeOf = (p: OfferPassenger) =>
  p.type ?? (p.age === null ? 'adult' : p.age < 2 ? 'infant_without_seat' : p.age < 12 ? 'child' : 'adult');

/**
 * Our travellers on the offer's passenger ids, type by type in order; infants ride on an adult's lap
 * (`infant_passenger_id`). Duffel takes only `m` or `f`: `x` is a 400 on that passenger's gender before
 * anything is ordered.
 */
export function matchPassengers(
  offered: readonly OfferPassenger[],
  request: OrderRequest,
): { passengers: CreateOrderPassenger[]; ourIndex: number[] } | { error: ApiError } {
  const free = [...offered];
  const problems = request.passengers.flatMap((p: OrderPassenger, i) =>
    p.gender === 'm' || p.gender === 'f'
      ? []
      : [{ path: `passengers.${i}.gender`, message: 'the airline takes m or f only' }],
  );
  if (problems.length > 0) return { error: new ValidationError(problems) };
  const passengers: CreateOrderPassenger[] = [];
  const ourIndex: number[] = [];
  request.passengers.forEach((p, i) => {
    const at = free.findIndex((o) => typeOf(o) === DUFFEL_TYPE[p.pax_type]);
    const [match] = at >= 0 ? free.splice(at, 1) : [];
    if (!match) return;
    ourIndex.push(i);
    passengers.push({
      id: match.id,
      title: p.title as CreateOrderPassenger['title'],
      gender: p.gender === 'm' ? 'm' : 'f',
      given_name: p.first_name,
      family_name: p.last_name,
      born_on: p.born_on,
      email: request.contact.email,
      phone_number: request.contact.phone,
    });
  });
  const infants = passengers.filter((_, k) => request.passengers[ourIndex[k] ?? -1]?.pax_type === 'INFANT');
  const adults = passengers.filter((_, k) => request.passengers[ourIndex[k] ?? -1]?.pax_type === 'ADULT');
  infants.forEach((infant, k) => {
    const adult = adults[k];
    if (adult) adult.infant_passenger_id = infant.id;
  });
  if (passengers.length !== offered.length) return { error: new SoldOutError() };
  return { passengers, ourIndex };
}
