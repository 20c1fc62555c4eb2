import * as z from 'zod/mini';
import { TRAVEL_CLASSES } from '../../flights/cabins.ts';
import type { FareConditionsView } from '../../flights/fare-conditions.ts';
import { type PriceRow, paxTypes } from '../../flights/fare-details.ts';
import { PAX_TYPES, type PassengerCounts } from '../../flights/fares.ts';

/**
 * The Flight as a booking stores it (booking-item.ts), with the fare conditions it was sold with
 * (`flight.conditions`): the refund quote and the cancel read them there, never today's table
 * (docs/bookings.md, "Refunds"). Absent on bookings stored before fares carried conditions.
 */
const Condition = () =>
  z.nullable(
    z.object({
      allowed: z.boolean(),
      penalty: z.nullable(z.object({ amount: z.number(), currency: z.string() })),
    }),
  );
const SoldConditions = () =>
  z.object({
    refund_before_departure: Condition(),
    change_before_departure: Condition(),
  });

const Segment = () =>
  z.object({
    carrier_code: z.string(),
    carrier_name: z.string(),
    flight_number: z.string(),
    origin: z.string(),
    destination: z.string(),
    departure_at: z.string(),
    arrival_at: z.string(),
    duration_minutes: z.number(),
  });
/** A stored segment's schema: a change's `from` and `to` (booking-item.ts) list them. */
export const StoredSegment = Segment;
const Direction = () =>
  z.object({
    duration_minutes: z.number(),
    stops: z.number(),
    segments: z.array(Segment()),
    /** The journey's own conditions as sold (absent on bookings stored before journeys carried them). */
    conditions: z.optional(SoldConditions()),
    /** Bags included and the fare brand, as sold (absent on bookings stored before them). */
    baggage: z.optional(
      z.array(z.object({ pax_type: z.enum(PAX_TYPES), carry_on: z.number(), checked: z.number() })),
    ),
    fare_brand: z.optional(z.nullable(z.string())),
  });
const Money = () => z.nullable(z.number());
/**
 * The stored Flight's schema, built by the item schemas that hold it when they are first read
 * (shared/db/stored-item.ts, itemSchema), never at import.
 */
export const Flight = () =>
  z.object({
    id: z.string(),
    total_price: z.number(),
    currency: z.string(),
    travel_class: z.enum(TRAVEL_CLASSES),
    /** Null where the supplier does not publish it (docs/API.md §4.5). */
    seats_available: z.nullable(z.number()),
    expires_at: z.string(),
    passengers: z.object({ adults: z.number(), children: z.number(), infants: z.number() }),
    outbound: Direction(),
    inbound: z.optional(Direction()),
    /** Every journey (absent on bookings stored before journeys were one shape: read as outbound, inbound). */
    slices: z.optional(z.array(Direction())),
    /** As sold: refunds read them here, never today's table (absent on bookings stored before them). */
    conditions: z.optional(SoldConditions()),
    /** The price per passenger type as sold (absent on bookings stored before it). */
    price_breakdown: z.optional(
      z.array(
        z.object({
          pax_type: z.enum(PAX_TYPES),
          count: z.number(),
          base: Money(),
          taxes: Money(),
          total: Money(),
        }),
      ),
    ),
  });

/** The conditions of a booking stored before fares carried them: nothing was stated when it was sold. */
const NOT_STATED: FareConditionsView = { refund_before_departure: null, change_before_departure: null };

type StoredDirection = z.output<ReturnType<typeof Direction>>;

/**
 * A journey as answered: with its conditions; a journey stored before journeys carried them was sold
 * under the trip's conditions when it was the only one, and under none stated otherwise.
 */
const soldDirection = (direction: StoredDirection, only: FareConditionsView | undefined) => ({
  ...direction,
  conditions: direction.conditions ?? only ?? NOT_STATED,
  // Stored before fares stated them: no bags known, no brand.
  baggage: direction.baggage ?? [],
  fare_brand: direction.fare_brand ?? null,
});

/** The price rows of a booking stored before them: one per passenger type, nothing stated. */
const unstatedPrices = (passengers: PassengerCounts): PriceRow[] =>
  paxTypes(passengers).map(([pax_type, count]) => ({
    pax_type,
    count,
    base: null,
    taxes: null,
    total: null,
  }));

/**
 * A stored Flight as answered: every Booking's flight carries `conditions` and `slices`, and each journey
 * its `conditions` (docs/API.md §4.1).
 */
export const soldFlight = <
  Flight extends {
    passengers: PassengerCounts;
    outbound: StoredDirection;
    inbound?: StoredDirection | undefined;
    slices?: StoredDirection[] | undefined;
    conditions?: FareConditionsView | undefined;
    price_breakdown?: PriceRow[] | undefined;
  },
>(
  flight: Flight,
) => {
  const slices = flight.slices ?? [flight.outbound, ...(flight.inbound ? [flight.inbound] : [])];
  const only = slices.length === 1 ? flight.conditions : undefined;
  return {
    ...flight,
    outbound: soldDirection(flight.outbound, only),
    ...(flight.inbound && { inbound: soldDirection(flight.inbound, only) }),
    slices: slices.map((slice) => soldDirection(slice, only)),
    conditions: flight.conditions ?? NOT_STATED,
    price_breakdown: flight.price_breakdown ?? unstatedPrices(flight.passengers),
  };
};
