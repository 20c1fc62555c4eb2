import { TRY_AGAIN } from '../db/retry.ts';
import { slotted, transact } from '../db/transaction.ts';
import { IdempotencyInProgressError, OfferExpiredError, SeatUnavailableError } from '../errors.ts';
import { conditionsSeal, shownConditions } from '../flights/fare-conditions.ts';
import { bucketLimits, seatsFor } from '../flights/fares.ts';
import { quotedFlights, quotedFlightView } from '../flights/flight-view.ts';
import { flightDateKey, readTakenSeats, takeSeatsUpdate } from '../flights/inventory-item.ts';
import { type OpenedOffer, openOffer } from '../flights/offers.ts';
import { segmentPrice } from '../flights/pricing.ts';
import type { ScheduledFlight } from '../flights/schedule.ts';
import type { SearchDeps } from '../flights/search.ts';
import { newPnr } from './network-pnr.ts';
import { conditionsMoved, reprice } from './network-reprice.ts';
import { networkServices } from './network-services.ts';
import {
  type ChosenSeat,
  type InTableOrdering,
  type InTableSupplier,
  offerFacts,
  type RecordSlot,
  type RecordWrites,
  type SupplierOffer,
} from './port.ts';

type Slot = RecordSlot | 'seats';

/**
 * The built-in network as a FlightSupplier (docs/API.md §4.5 `network`): schedule and fares from
 * `flights/`, seats in the table. Offer ids are sealed quotes; booking takes the seats in the quoted
 * bucket on every segment in the same TransactWriteItems as the booking's own writes. Its parts are
 * built apart ({@link networkOffers}, {@link networkOrders} (network-orders.ts), `searchFlights`) so that each function
 * carries only its own.
 */
export function networkOffers(deps: SearchDeps): Pick<InTableSupplier, 'name' | 'openOffer'> {
  return {
    name: 'network',
    openOffer: (flightId) => {
      const quote = openOffer(deps.keys.offer, flightId);
      const flights = quote && quotedFlights(quote);
      return quote && flights?.[0] ? networkOffer(deps, quote, flights, flights[0]) : undefined;
    },
  };
}

function networkOffer(
  deps: SearchDeps,
  quote: OpenedOffer,
  flights: ScheduledFlight[],
  first: ScheduledFlight,
): SupplierOffer<InTableOrdering> {
  const seats = seatsFor(quote.passengers);
  return {
    ...offerFacts(quote),
    firstDepartureDate: first.date,
    // The price is checked inside the booking transaction itself (the seats' condition), not read first;
    // the conditions against the seal of those search showed, with today's table (CONDITIONS_CHANGED).
    requote: async (flightId) => {
      const flight = quotedFlightView(flightId, quote, flights);
      const moved =
        quote.conditions !== undefined && quote.conditions !== conditionsSeal(shownConditions(flight));
      return {
        flight,
        departsAt: first.departureAt,
        ...(moved && { change: await conditionsMoved(deps, deps.clock.now(), quote, flights) }),
      };
    },
    ordering: {
      kind: 'in-table',
      holding: {
        seats,
        segments: quote.segments.map((s, i) => ({
          flight_number: s.flightNumber,
          date: s.date,
          bucket: s.bucket,
          paid: segmentPrice(flights[i] as ScheduledFlight, quote.travelClass, s.bucket, quote.passengers),
        })),
      },
      reserve: (records, chosen = []) => reserveSeats(deps, { quote, flights, seats, chosen }, records),
    },
    services: () => networkServices(deps, quote, flights),
  };
}

/**
 * One TransactWriteItems: the seats in the quoted bucket on every segment, and the booking's own
 * writes. A race this booking can win on another try (a PNR taken meanwhile, a conflict, seats that
 * came back) is tried again with a fresh PNR (db/retry.ts).
 */
function reserveSeats(deps: SearchDeps, order: SeatOrder, records: RecordWrites): Promise<string> {
  const { quote, flights, seats, chosen } = order;
  let pnr = '';
  const transaction = () => {
    pnr = newPnr();
    const takeSeats = flights.map((flight, i) => {
      const capacity = flight.leg.aircraft.seats[quote.travelClass] ?? 0;
      const limit = bucketLimits(quote.travelClass, capacity)[quote.segments[i]?.bucket ?? 0] ?? 0;
      const designators = chosen.filter((s) => s.segmentIndex === i).map((s) => s.designator);
      const update = takeSeatsUpdate(
        deps.tableName,
        flight,
        quote.travelClass,
        seats,
        limit - seats,
        designators,
      );
      return ['seats', { Update: update }] as const;
    });
    return slotted<Slot>([...takeSeats, ...records(pnr)]);
  };
  return transact(deps.db, transaction, {
    written: () => pnr,
    cancelled: async (failed, error): Promise<typeof TRY_AGAIN> => {
      if (failed.conditionFailed('offer')) throw new OfferExpiredError();
      if (failed.conditionFailed('idempotency')) throw new IdempotencyInProgressError();
      const seatsGone = failed.conditionFailed('seats');
      if (seatsGone) {
        await throwIfSeatsTaken(deps, order);
        const repriced = await reprice(deps, deps.clock.now(), quote, flights);
        if (repriced) throw repriced;
      }
      const retriable =
        seatsGone ||
        failed.conditionFailed('pnr') ||
        failed.any('TransactionConflict') ||
        failed.any('ThrottlingError');
      if (!retriable) throw error;
      return TRY_AGAIN;
    },
  });
}

/** What one booking takes: the quote's seats on its flights, and the seats chosen among them. */
interface SeatOrder {
  readonly quote: OpenedOffer;
  readonly flights: ScheduledFlight[];
  readonly seats: number;
  readonly chosen: readonly ChosenSeat[];
}

/** After the seats' condition failed: SEAT_UNAVAILABLE when a chosen seat is now taken (read again). */
async function throwIfSeatsTaken(deps: SearchDeps, order: SeatOrder): Promise<void> {
  if (order.chosen.length === 0) return;
  const taken = await readTakenSeats(deps, order.flights);
  const gone = order.chosen.filter((seat) => {
    const flight = order.flights[seat.segmentIndex];
    return flight && taken.get(flightDateKey(flight))?.has(seat.designator);
  });
  if (gone.length > 0)
    throw new SeatUnavailableError(
      gone.map((seat) => ({ path: seat.path, message: `Seat ${seat.designator} is no longer available` })),
    );
}
