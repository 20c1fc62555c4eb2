import * as z from 'zod/mini';
import { BOOKING_STATUSES, type BookingView } from '../bookings/entity/booking-item.ts';
import type { RefundQuoteView } from '../bookings/refund-quote.ts';
import { passenger } from '../bookings/request.ts';
import { TRAVEL_CLASSES } from '../flights/cabins.ts';
import type { FlightView } from '../flights/flight-view.ts';
import { REFUND_DESTINATIONS } from '../supply/port.ts';

/**
 * The success payloads as zod schemas, for the OpenAPI document only (functions never load this
 * module). The type assertions at the end fail compilation if a handler's view drifts from them.
 */
const DateTime = z.iso.datetime().check(z.describe('ISO 8601 UTC date-time, whole seconds, with Z'));
/** As requests take it (bookings/request.ts): `multipleOf: 0.01`, judged in decimal, not in binary floats. */
const Money = z
  .number()
  .check(z.meta({ description: 'Major currency units, at most 2 decimals', multipleOf: 0.01 }));

export const Segment = z.object({
  carrier_code: z.string().check(z.describe('IATA airline code')),
  carrier_name: z.string(),
  flight_number: z.string(),
  origin: z.string().check(z.describe('IATA airport code')),
  destination: z.string(),
  departure_at: DateTime,
  arrival_at: DateTime,
  duration_minutes: z.int(),
});

const Condition = z
  .nullable(
    z.object({
      allowed: z.boolean(),
      penalty: z
        .nullable(z.object({ amount: Money, currency: z.string() }))
        .check(
          z.describe(
            'For all passengers together (0: free); null where it is not allowed or the supplier does not state it',
          ),
        ),
    }),
  )
  .check(z.describe('Null where the supplier does not say'));

const FareConditions = z
  .object({ refund_before_departure: Condition, change_before_departure: Condition })
  .check(
    z.describe(
      'What the fare allows before departure. Built-in network: the fare conditions table of each bucket (docs/flights.md); a booking keeps the conditions it was sold with, and its refund follows them',
    ),
  );

const PaxType = z.enum(['ADULT', 'CHILD', 'INFANT']);
const StatedMoney = z
  .nullable(Money)
  .check(z.describe('Major units; null where the supplier does not state it'));

/** One row of a `price_breakdown`: a passenger type's fare, base and taxes (a Booking's lines add `service`). */
const PriceRow = z.object({
  pax_type: PaxType,
  count: z.int().check(z.minimum(1)),
  base: StatedMoney,
  taxes: StatedMoney,
  total: StatedMoney,
});

const Direction = z.object({
  duration_minutes: z.int(),
  stops: z.int().check(z.minimum(0), z.maximum(1)),
  segments: z.array(Segment).check(z.minLength(1), z.maxLength(2)),
  conditions: FareConditions.check(
    z.describe(
      "This journey's own fare conditions (as Duffel's slices carry them; on the built-in network from this journey's buckets). The Flight's conditions are the whole trip's summary",
    ),
  ),
  baggage: z
    .array(
      z.object({
        pax_type: PaxType,
        carry_on: z.int().check(z.minimum(0)),
        checked: z.int().check(z.minimum(0)),
      }),
    )
    .check(
      z.describe(
        "Bags included on this journey per passenger of each type (pieces). Built-in network: the baggage table of the journey's buckets (docs/flights.md); Duffel: its segments' passengers' baggages, the least over the journey. Empty where nothing is stated",
      ),
    ),
  fare_brand: z
    .nullable(z.string())
    .check(
      z.describe("This journey's fare brand (Duffel's fare_brand_name); null where the supplier gives none"),
    ),
});

export const Flight = z.object({
  id: z.string().check(z.describe('Opaque offer id, bound to your agency, valid until expires_at')),
  total_price: Money.check(
    z.describe('For all passengers together, in major currency units, at most 2 decimals'),
  ),
  currency: z.string(),
  travel_class: z.enum(TRAVEL_CLASSES),
  seats_available: z
    .nullable(z.int().check(z.minimum(0), z.maximum(9)))
    .check(
      z.describe(
        'Seats left in the cabin on the fullest segment, capped at 9; null where the supplier does not publish it',
      ),
    ),
  expires_at: DateTime,
  passengers: z.object({ adults: z.int(), children: z.int(), infants: z.int() }),
  outbound: Direction.check(z.describe('Origin to destination on departure_date')),
  inbound: z
    .optional(Direction)
    .check(
      z.describe(
        'Round trip only: destination back to origin on return_date, leaving at least 2 hours after the outbound lands',
      ),
    ),
  slices: z
    .array(Direction)
    .check(
      z.describe(
        'Every journey in request order: one for one way, two for a round trip (the same as outbound and inbound), 2-6 for multi-city (outbound is the first; no inbound). Each journey leaves at least 2 hours after the previous one lands.',
      ),
    ),
  price_breakdown: z
    .array(PriceRow)
    .check(
      z.describe(
        'The price per passenger type present (all passengers of the type together): base fare, taxes and total; the totals sum to total_price to the cent. Built-in network: departure taxes per airport (docs/flights.md), infants pay taxes only. Duffel: its base_amount and tax_amount; a party of several types has every amount null (Duffel does not split by passenger)',
      ),
    ),
  conditions: FareConditions.check(
    z.describe(
      "The whole trip's summary of its journeys' conditions: allowed only if every journey allows it; on the built-in network at the sum of the journeys' penalties; from Duffel, the offer's own conditions as Duffel states them",
    ),
  ),
});

export const Agent = z.object({
  id: z.string(),
  name: z.string(),
  agency_id: z.string(),
  identifier: z.string(),
  role: z
    .enum(['AGENT', 'ADMIN'])
    .check(z.describe('What the agent may do now: ADMINs also administer the agency (agents, webhooks)')),
});

/** Who made a change: an agent of the agency, or the operator's CLI (`operator`). */
const Actor = z.object({ id: z.string(), name: z.string() });

/** An agent as agency administration shows it (docs/API.md §3.4). */
export const AgencyAgent = z.object({
  id: z.string().check(z.describe('agt_ + 24 hex digits')),
  name: z.string(),
  identifier: z.string().check(z.describe('The sign-in e-mail address or E.164 number')),
  type: z.enum(['EMAIL', 'PHONE']),
  role: z.enum(['AGENT', 'ADMIN']),
  active: z.boolean(),
  created_at: DateTime,
  created_by: z.optional(Actor).check(z.describe('Absent for agents created before this was recorded')),
  updated_at: z.optional(DateTime),
  updated_by: z.optional(Actor),
});

/** Where a cancel's money goes, and the airline credits it gives (docs/API.md §4.3). */
const REFUND_TO =
  'Where the refund goes, as the supplier says: balance (the agency’s account; the built-in network), card, voucher, airline_credits, arc_bsp_cash, awaiting_payment (a hold: nothing was paid); null when the supplier names no destination, or one this service does not know';
const AIRLINE_CREDITS =
  'The airline credits the cancel gives (Duffel’s airline_credits), each with the code the airline redeems it by (null until the airline issues it), its value and its expiry (null when not stated); empty when none';
const RefundTo = z.nullable(z.enum(REFUND_DESTINATIONS));
const AirlineCredits = z.array(
  z.object({
    code: z.nullable(z.string()),
    amount: Money,
    currency: z.string(),
    expires_at: z.nullable(DateTime),
  }),
);

export const Booking = z.object({
  booking_id: z.string().check(z.describe('bkg_ + ULID')),
  pnr: z
    .nullable(z.string().check(z.regex(/^[A-Z0-9]{5,8}$/)))
    .check(
      z.describe(
        'The booking reference: 6 letters from the built-in network, the airline record locator from a supplier; null while PENDING and when FAILED',
      ),
    ),
  status: z
    .enum(BOOKING_STATUSES)
    .check(
      z.describe(
        'CONFIRMED, CANCELLED; HELD until payment_required_by, then CONFIRMED (booking/confirm), CANCELLED or EXPIRED; PENDING and FAILED only when selling from an external supplier',
      ),
    ),
  total_price: Money,
  currency: z.string(),
  created_at: DateTime,
  version: z.int().check(z.describe('1 when booked, one more at each state change: order events by it')),
  updated_at: DateTime.check(z.describe('When the status last changed')),
  cancelled_at: z.optional(DateTime),
  created_by: z.optional(Actor).check(z.describe('The agent who booked (id and name at the time)')),
  cancelled_by: z.optional(Actor).check(z.describe('The agent who cancelled')),
  flight: Flight,
  passengers: z.array(
    z.extend(passenger(), {
      seats: z
        .optional(
          z.array(
            z.object({
              segment_index: z.int(),
              designator: z.string(),
              price: z.object({ amount: Money, currency: z.string() }),
            }),
          ),
        )
        .check(z.describe('The seats chosen for the passenger at create, per segment, with what each cost')),
    }),
  ),
  services: z
    .optional(
      z.array(
        z.object({
          id: z.string().check(z.describe('The bag’s id in offer/services')),
          journey_index: z.int().check(z.describe('The journey it travels on (0: the first)')),
          passenger_index: z.int().check(z.describe('Whose bag: the place in passengers[]')),
          kind: z.literal('checked'),
          weight_kg: z.number(),
          quantity: z.int().check(z.describe('How many of this bag were bought')),
          price: z.object({ amount: Money, currency: z.string() }).check(z.describe('Per bag')),
        }),
      ),
    )
    .check(z.describe('The bags bought at create (offer/services); absent when none')),
  price_breakdown: z
    .optional(
      z.array(
        z.extend(PriceRow, {
          service: z
            .optional(z.enum(['bags', 'seats']))
            .check(z.describe('Present on the lines of bags and seats; absent on the fare’s own rows')),
        }),
      ),
    )
    .check(
      z.describe(
        'With bags or seats only: flight.price_breakdown’s rows (the fare), then one line per service and passenger type (count: how many bags or seats; base and total what they cost; taxes 0); the totals sum to total_price to the cent. Absent without bags or seats: flight.price_breakdown is then the whole price',
      ),
    ),
  contact: z.object({ email: z.string(), phone: z.string() }),
  supplier: z
    .optional(z.object({ name: z.string(), order_id: z.optional(z.string()) }))
    .check(z.describe("External suppliers only: the supplier's name and its order id")),
  refund: z
    .optional(z.nullable(z.object({ amount: Money, currency: z.string() })))
    .check(
      z.describe(
        'Once cancelled: what was given back (0 for a hold, which was never paid; from the built-in network the price less the penalty of the conditions it was sold with, or 0 where they allow no refund; the supplier’s refund otherwise, null while the supplier does not know it — never 0 for unknown)',
      ),
    ),
  refund_to: z.optional(RefundTo).check(z.describe(`Once cancelled: ${REFUND_TO}`)),
  airline_credits: z.optional(AirlineCredits).check(z.describe(`Once cancelled: ${AIRLINE_CREDITS}`)),
  payment_required_by: z
    .optional(DateTime)
    .check(
      z.describe('HELD (and EXPIRED) bookings: the hold’s deadline, by which booking/confirm must be called'),
    ),
  changes: z
    .optional(
      z.array(
        z.object({
          at: DateTime,
          by: Actor,
          from: z.array(Segment).check(z.describe('The changed journeys’ segments before the change')),
          to: z.array(Segment).check(z.describe('Their segments after it')),
          change_total: z.object({ amount: Money, currency: z.string() }),
        }),
      ),
    )
    .check(z.describe('The changes of its flights (booking/change), oldest first; absent before the first')),
  notes: z
    .optional(
      z.array(
        z.object({
          id: z.string().check(z.describe('note_ + ULID')),
          text: z.string(),
          created_at: DateTime,
          created_by: Actor,
        }),
      ),
    )
    .check(
      z.describe(
        'The agency’s notes, oldest first, at most 50 (booking/note, and a line per booking/resend); absent until the first. Never in a webhook or a traveller’s e-mail',
      ),
    ),
});

/** booking/itinerary's answer: the itinerary e-mail's subject and bodies (docs/API.md §4.3). */
export const Itinerary = z.object({
  subject: z.string(),
  text: z.string().check(z.describe('Plain text, lines separated by \\n')),
  html: z.string().check(z.describe('A whole HTML document; every value from the booking is escaped')),
});

const Amount = z.object({ amount: Money, currency: z.string() });

/** What a cancel now would give back (docs/API.md §4.3). */
const REFUND =
  'What a cancel now would give back; 0 for a HELD booking; null when the supplier does not know it (never 0 for unknown)';
const PENALTY =
  'What the cancel keeps of the price (in the refund’s currency); null when it keeps nothing, or when it cannot be stated in the refund’s currency (then penalty_unknown is true)';
const PENALTY_UNKNOWN =
  'Present only when the penalty cannot be stated (refund unknown, or in another currency)';

export const RefundQuote = z.object({
  booking_id: z.string(),
  refund: z.nullable(Amount).check(z.describe(REFUND)),
  penalty: z.nullable(Amount).check(z.describe(PENALTY)),
  penalty_unknown: z.optional(z.literal(true).check(z.describe(PENALTY_UNKNOWN))),
  refund_to: RefundTo.check(z.describe(REFUND_TO)),
  airline_credits: AirlineCredits.check(z.describe(AIRLINE_CREDITS)),
  expires_at: z
    .nullable(DateTime)
    .check(
      z.describe(
        'Until when the quote holds: the supplier’s quote’s expiry, a hold’s deadline, the first departure at the latest; null when the supplier states none. A cancel sent with this refund after it changed is 409 REFUND_CHANGED.',
      ),
    ),
});

export const SendOtpData = z.object({ expires_in: z.int(), resend_after: z.int() });
const COOKIE_ONLY_ANSWER =
  'The answer to "cookie_only": true: the session is only in the HttpOnly __Host-session cookie';
const signedInSession = { expires_in: z.int(), expires_at: DateTime, agent: Agent };
/** verify-otp's data: with the token, or without it when the request said `cookie_only` (docs/API.md §3.2). */
export const VerifyOtpData = z.union([
  z.object({
    verification_token: z.string().check(z.describe('JWT (HS256); also set as the __Host-session cookie')),
    token_type: z.literal('Bearer'),
    ...signedInSession,
  }),
  z.object(signedInSession).check(z.describe(COOKIE_ONLY_ANSWER)),
]);
export const SessionData = z.object({
  agent: Agent,
  expires_at: DateTime.check(z.describe('When the session token expires')),
  via: z
    .enum(['bearer', 'cookie'])
    .check(z.describe('How the token was presented: the Authorization header, or the __Host-session cookie')),
});
export const EmptyData = z.object({});

/** An airport as airport search answers it (docs/API.md §4.7). */
export const AirportData = z.object({
  code: z.string().check(z.describe('IATA airport code')),
  name: z.string(),
  city: z.string(),
  country: z.string().check(z.describe('ISO 3166-1 alpha-2 country code')),
  time_zone: z.string().check(z.describe('IANA time zone, e.g. Europe/London')),
});

/** `{"success": true, "data": …, "meta"?: …}` */
export const success = <D extends z.ZodMiniType, M extends z.ZodMiniType>(data: D, meta?: M) =>
  meta ? z.object({ success: z.literal(true), data, meta }) : z.object({ success: z.literal(true), data });

const ErrorDetail = z.object({
  path: z.optional(z.string()),
  message: z.optional(z.string()),
  expected: z.optional(z.unknown()),
  received: z.optional(z.unknown()),
});

/** The failure envelope (docs/API.md §1, §2). */
export const ErrorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.union([z.array(ErrorDetail), z.record(z.string(), z.unknown())])),
    request_id: z.string(),
  }),
});

type Assignable<T extends U, U> = T;
/** Compile-time: what the handlers return fits these schemas. */
export type ViewsMatchSchemas = [
  Assignable<FlightView, z.output<typeof Flight>>,
  Assignable<BookingView, z.output<typeof Booking>>,
  Assignable<RefundQuoteView, z.output<typeof RefundQuote>>,
];
