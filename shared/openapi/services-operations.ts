import * as z from 'zod/mini';
import { type OfferServicesView, offerServicesRequest, servicesView } from '../bookings/offer-services.ts';
import { bagOffers } from '../flights/bags.ts';
import { TRAVEL_CLASSES } from '../flights/cabins.ts';
import { legBetween } from '../flights/schedule.ts';
import { seatLayout } from '../flights/seat-layouts.ts';
import { seatMap } from '../flights/seat-maps.ts';
import { flight } from './examples.ts';
import type { Operation } from './operation.ts';
import { success } from './responses.ts';

/** Bags and seat maps (docs/API.md §4.10). */
const Money = z.object({
  amount: z
    .number()
    .check(z.meta({ description: 'Major currency units, at most 2 decimals', multipleOf: 0.01 })),
  currency: z.string(),
});

const Seat = z.object({
  type: z.literal('seat'),
  designator: z.string().check(z.describe('Row number and letter: 12A')),
  available: z.boolean(),
  price: z
    .nullable(Money)
    .check(
      z.describe('For one passenger on this segment; 0 when included; null when the seat is not for sale'),
    ),
  features: z.array(z.enum(['window', 'aisle', 'exit_row', 'extra_legroom'])),
});

const OfferServices = z.object({
  bags: z.array(
    z.object({
      id: z.string().check(z.describe('Send it in create’s services[].id')),
      journey_index: z.int(),
      passenger_index: z.int().check(z.describe('The passenger’s place in create’s passengers[]')),
      kind: z.literal('checked'),
      weight_kg: z.int(),
      price: Money.check(z.describe('Per bag')),
      max_quantity: z.int().check(z.describe('Most of this bag one passenger may buy for the journey')),
    }),
  ),
  seat_maps: z.array(
    z.object({
      segment_index: z.int(),
      cabins: z.array(
        z.object({
          cabin: z.enum(TRAVEL_CLASSES),
          rows: z.array(
            z.object({
              number: z.int(),
              sections: z
                .array(
                  z.array(
                    z.union([Seat, z.object({ type: z.enum(['empty', 'exit', 'lavatory', 'galley']) })]),
                  ),
                )
                .check(z.describe('The groups of elements between aisles, left to right')),
            }),
          ),
        }),
      ),
    }),
  ),
});

/** The example: the example flight's bags, and its seat map cut to each cabin's first two rows. */
function example(): OfferServicesView {
  const leg = legBetween('LHR', 'JFK');
  const layout = leg && seatLayout(leg.aircraft.type);
  if (!leg || !layout) throw new Error('example seat map missing');
  const cabins = seatMap({ layout, travelClass: 'ECONOMY', distanceKm: leg.distanceKm, taken: new Set() });
  return servicesView(
    {
      bags: bagOffers('ECONOMY', [leg.distanceKm], 1),
      seatMaps: [{ segmentIndex: 0, cabins: cabins.map((c) => ({ ...c, rows: c.rows.slice(0, 2) })) }],
    },
    'EUR',
  );
}

export const servicesOperations = {
  'offer-services': {
    summary: 'Bags and seats for an offer',
    description:
      'The checked bags (per passenger and journey, with a price per bag and the most one passenger may buy) and a seat map per segment (every cabin; only the offer’s cabin is for sale; infants get no seat). Send the chosen ones to booking/create as services and seats, with total_price including them. The same offer checks as create: 404 FLIGHT_NOT_FOUND, 410 OFFER_EXPIRED (expired or booked). Built-in network: the cabin layout of the aircraft type, the seats sold on that flight-date, bag and seat prices by route length and cabin (docs/flights.md).',
    tag: 'Flights',
    request: offerServicesRequest(),
    requestExample: { flight_id: flight.id },
    status: 200,
    response: success(OfferServices),
    responseExample: { success: true, data: example() },
    errors: ['UNAUTHORIZED', 'FLIGHT_NOT_FOUND', 'OFFER_EXPIRED'],
  },
} satisfies Record<string, Operation>;

type Assignable<T extends U, U> = T;
/** Compile-time: what the route returns fits the schema. */
export type ServicesViewMatchesSchema = Assignable<OfferServicesView, z.output<typeof OfferServices>>;
