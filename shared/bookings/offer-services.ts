import * as z from 'zod/mini';
import type { Session } from '../auth/session.ts';
import { FlightNotFoundError, OfferExpiredError } from '../errors.ts';
import type { TravelClass } from '../flights/cabins.ts';
import type { MapCabin, SeatFeature } from '../flights/seat-maps.ts';
import { toMajor } from '../money.ts';
import type { OfferServices, SupplierOffer } from '../supply/port.ts';
import '../zod-locale.ts';
import { isOfferBooked } from './entity/booked-offer-item.ts';
import type { OfferDeps } from './flow.ts';

/**
 * `POST /api/flights/offer/services` (docs/API.md §4.10): the bags and seat maps sold with an offer,
 * after create's offer checks (issued to this agency: 404; expired or booked: 410). The request schema
 * is built when first used (http/validate.ts).
 */
export const offerServicesRequest = () =>
  z.object({
    flight_id: z
      .string()
      .check(z.minLength(1), z.maxLength(2048), z.meta({ description: 'The id of an offer from search' })),
  });

interface Money {
  amount: number;
  currency: string;
}

type SeatMapElementView =
  | { type: 'seat'; designator: string; available: boolean; price: Money | null; features: SeatFeature[] }
  | { type: 'empty' | 'exit' | 'lavatory' | 'galley' };

export interface OfferServicesView {
  bags: {
    id: string;
    journey_index: number;
    passenger_index: number;
    kind: 'checked';
    weight_kg: number;
    price: Money;
    max_quantity: number;
  }[];
  seat_maps: {
    segment_index: number;
    cabins: { cabin: TravelClass; rows: { number: number; sections: SeatMapElementView[][] }[] }[];
  }[];
}

/** The services of the caller's offer `flightId`: 404, 410, or what the supplier sells with it. */
export function offerServices(deps: OfferDeps) {
  return async (body: { flight_id: string }, session: Session): Promise<OfferServicesView> => {
    const opened = deps.offerFlow.open(body.flight_id);
    const offer = opened?.agencyId === session.agencyId ? opened : undefined;
    if (!offer) throw new FlightNotFoundError();
    if (deps.clock.now() >= offer.expiresAt * 1000) throw new OfferExpiredError();
    const [services, booked] = await Promise.all([servicesOf(offer), isOfferBooked(deps, offer.identity)]);
    if (booked) throw new OfferExpiredError();
    return servicesView(services, offer.currency);
  };
}

const NONE: OfferServices = { bags: [], seatMaps: [] };
const servicesOf = (offer: SupplierOffer): Promise<OfferServices> =>
  offer.services ? offer.services() : Promise.resolve(NONE);

/** The contract's shape: money in major units of the offer's currency. */
export function servicesView(services: OfferServices, currency: string): OfferServicesView {
  const money = (minor: number): Money => ({ amount: toMajor(minor, currency), currency });
  return {
    bags: services.bags.map((bag) => ({
      id: bag.id,
      journey_index: bag.journeyIndex,
      passenger_index: bag.passengerIndex,
      kind: 'checked',
      weight_kg: bag.weightKg,
      price: money(bag.price),
      max_quantity: bag.maxQuantity,
    })),
    seat_maps: services.seatMaps.map((map) => ({
      segment_index: map.segmentIndex,
      cabins: map.cabins.map((cabin) => cabinView(cabin, money)),
    })),
  };
}

function cabinView(cabin: MapCabin, money: (minor: number) => Money) {
  return {
    cabin: cabin.cabin,
    rows: cabin.rows.map((row) => ({
      number: row.number,
      sections: row.sections.map((section) =>
        section.map(
          (e): SeatMapElementView =>
            e.type === 'seat'
              ? {
                  type: 'seat',
                  designator: e.designator,
                  available: e.available,
                  price: e.price === null ? null : money(e.price),
                  features: [...e.features],
                }
              : { type: e.type },
        ),
      ),
    })),
  };
}
