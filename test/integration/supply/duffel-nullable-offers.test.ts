import { describe, expect, it } from 'vitest';
import { bookingBody, type Json } from '#test/helpers/bookings.ts';
import { duffelMode, freshEachTest } from '#test/helpers/duffel.ts';
import { testContext } from '#test/helpers/test-context.ts';
import type { Wire } from '../../../infra/local/duffel-stand-in.ts';

/**
 * Every field of Duffel's offer and order that `@duffel/api` or Duffel's reference types as nullable
 * (or optional), answered null by the stand-in, one case per field: search, booking and the sweep answer
 * what docs/decisions.md ("Duffel's nulls") says for it, never a 5xx. A field we do not read changes
 * nothing; one our Flight cannot do without leaves that offer out, as an offer it cannot carry is.
 */
const duffel = await duffelMode();
const { standIn } = duffel;

const each = freshEachTest(standIn, 'dnullo');

const search = async (body: Record<string, unknown> = {}) => {
  const departure = new Date(Date.UTC(2027, 5, 1) + each.day * 86_400_000).toISOString().slice(0, 10);
  const answer = await duffel.search(each.session, {
    origin: 'LHR',
    destination: 'JFK',
    departure_date: departure,
    ...body,
  });
  expect(answer.status).toBe(200);
  return answer.body.data as Json[];
};
/** Every offer of Duffel's search answers (and its re-read before booking) `change`d. */
const offers = (change: (offer: Wire) => void) => {
  standIn.reshape('offer_requests.create', (request) => {
    for (const offer of request.offers) change(offer);
    return request;
  });
  standIn.reshape('offers.get', (offer) => {
    change(offer);
    return offer;
  });
};
const slices = (change: (slice: Wire) => void) => (offer: Wire) => {
  for (const slice of offer.slices) change(slice);
};
const segments = (change: (segment: Wire) => void) =>
  slices((slice) => {
    for (const segment of slice.segments) change(segment);
  });
const passengers = (change: (passenger: Wire) => void) => (offerOrOrder: Wire) => {
  for (const passenger of offerOrOrder.passengers) change(passenger);
};
const withoutIds = (flights: Json[]) => flights.map(({ id: _, ...flight }) => flight);

/** Fields we do not read: null, the same flights (ids aside) as without. */
const unread: [string, (offer: Wire) => void][] = [
  ['total_emissions_kg', (o) => (o.total_emissions_kg = null)],
  ['owner.iata_code', (o) => (o.owner.iata_code = null)],
  ['payment_requirements.payment_required_by', (o) => (o.payment_requirements.payment_required_by = null)],
  [
    'payment_requirements.price_guarantee_expires_at',
    (o) => (o.payment_requirements.price_guarantee_expires_at = null),
  ],
  ['passengers[].fare_type', passengers((p) => (p.fare_type = null))],
  ['slices[].duration', slices((s) => (s.duration = null))],
  ['slices[].ngs_shelf', slices((s) => (s.ngs_shelf = null))],
  ['slices[].origin.city', slices((s) => (s.origin.city = null))],
  ['segments[].operating_carrier_flight_number', segments((s) => (s.operating_carrier_flight_number = null))],
  ['segments[].operating_carrier.iata_code', segments((s) => (s.operating_carrier.iata_code = null))],
  ['segments[].aircraft', segments((s) => (s.aircraft = null))],
  ['segments[].origin_terminal', segments((s) => (s.origin_terminal = null))],
  ['segments[].destination_terminal', segments((s) => (s.destination_terminal = null))],
  ['segments[].distance', segments((s) => (s.distance = null))],
  ['segments[].duration', segments((s) => (s.duration = null))],
  ['segments[].origin.city', segments((s) => (s.origin.city = null))],
  ['segments[].origin.iata_city_code', segments((s) => (s.origin.iata_city_code = null))],
];

describe('duffel mode: offer fields we do not read, null', () => {
  for (const [field, change] of unread) {
    it(`searches as without when ${field} is null`, async () => {
      const before = await search();
      offers(change);

      const after = await search();

      expect(after.length).toBeGreaterThan(0);
      expect(withoutIds(after)).toEqual(withoutIds(before));
    });
  }
});

describe('duffel mode: offer fields we read, null', () => {
  /** Null, the same flights (ids aside) but for `differs`, answered as `expected` on every Flight. */
  const stated: [string, (offer: Wire) => void, (flight: Json) => unknown, unknown][] = [
    ['tax_amount', (o) => (o.tax_amount = null), (f) => f.price_breakdown[0].taxes, null],
    ['tax_currency', (o) => (o.tax_currency = null), (f) => f.price_breakdown[0].taxes, null],
    [
      'slices[].fare_brand_name',
      slices((s) => (s.fare_brand_name = null)),
      (f) => f.slices.map((s: Json) => s.fare_brand),
      [null],
    ],
  ];
  for (const [field, change, read, expected] of stated) {
    it(`answers ${field} null where our Flight reads it, the rest as without`, async () => {
      const before = await search();
      offers(change);

      const after = await search();

      expect(after.length).toBe(before.length);
      for (const [i, flight] of after.entries()) {
        expect(read(flight)).toEqual(expected);
        expect(read(before[i] as Json)).not.toEqual(expected);
      }
    });
  }

  it('an offer without expires_at lasts our 20 minutes', async () => {
    offers((o) => {
      o.expires_at = null;
    });

    const flights = await search();

    expect(flights.length).toBeGreaterThan(0);
    const ours = new Date(testContext.clock.now() + 20 * 60_000).toISOString().replace('.000', '');
    for (const flight of flights) expect(flight.expires_at).toBe(ours);
  });

  const unnamed: [string, (offer: Wire) => void][] = [
    [
      'segments[].marketing_carrier_flight_number',
      segments((s) => (s.marketing_carrier_flight_number = null)),
    ],
    ['segments[].marketing_carrier.iata_code', segments((s) => (s.marketing_carrier.iata_code = null))],
    ['segments[].origin.iata_code', segments((s) => (s.origin.iata_code = null))],
    ['segments[].destination.iata_code', segments((s) => (s.destination.iata_code = null))],
  ];
  for (const [field, change] of unnamed) {
    it(`leaves out an offer whose ${field} is null (no Flight without it)`, async () => {
      offers(change);

      const flights = await search();

      expect(flights).toEqual([]);
    });
  }

  it('maps conditions null as null refund and change conditions', async () => {
    offers((o) => {
      o.conditions = null;
    });

    const flights = await search();

    expect(flights.length).toBeGreaterThan(0);
    for (const flight of flights)
      expect(flight.conditions).toEqual({ refund_before_departure: null, change_before_departure: null });
  });

  const allowed = (amount: string | null, currency: string | null) => ({
    allowed: true,
    penalty_amount: amount,
    penalty_currency: currency,
  });
  const conditionCases: [string, Wire, Json][] = [
    [
      'conditions.refund_before_departure',
      { refund_before_departure: null, change_before_departure: allowed('10.00', 'GBP') },
      {
        refund_before_departure: null,
        change_before_departure: { allowed: true, penalty: { amount: 10, currency: 'GBP' } },
      },
    ],
    [
      'conditions.change_before_departure',
      { refund_before_departure: allowed('10.00', 'GBP'), change_before_departure: null },
      {
        refund_before_departure: { allowed: true, penalty: { amount: 10, currency: 'GBP' } },
        change_before_departure: null,
      },
    ],
    [
      'conditions.refund_before_departure.penalty_amount',
      { refund_before_departure: allowed(null, 'GBP'), change_before_departure: null },
      { refund_before_departure: { allowed: true, penalty: null }, change_before_departure: null },
    ],
    [
      'conditions.refund_before_departure.penalty_currency',
      { refund_before_departure: allowed('10.00', null), change_before_departure: null },
      { refund_before_departure: { allowed: true, penalty: null }, change_before_departure: null },
    ],
    [
      'conditions.change_before_departure.penalty_amount',
      { refund_before_departure: null, change_before_departure: allowed(null, 'GBP') },
      { refund_before_departure: null, change_before_departure: { allowed: true, penalty: null } },
    ],
  ];
  for (const [field, conditions, expected] of conditionCases) {
    it(`maps ${field} null as a condition or penalty not stated (null)`, async () => {
      offers((o) => {
        o.conditions = conditions;
      });

      const flights = await search();

      expect(flights.length).toBeGreaterThan(0);
      for (const flight of flights) expect(flight.conditions).toEqual(expected);
    });
  }

  it('keeps a penalty in another currency than the fare in its own currency (never as none)', async () => {
    offers((o) => {
      o.conditions = { refund_before_departure: allowed('25.00', 'USD'), change_before_departure: null };
    });

    const flights = await search();

    expect(flights.length).toBeGreaterThan(0);
    for (const flight of flights) {
      expect(flight.currency).toBe('GBP');
      expect(flight.conditions.refund_before_departure).toEqual({
        allowed: true,
        penalty: { amount: 25, currency: 'USD' },
      });
    }
  });

  it('leaves out an offer in a shape Duffel does not document (slices null), never 5xx', async () => {
    offers((o) => {
      o.slices = null;
    });

    expect(await search()).toEqual([]);
  });
});

describe('duffel mode: offer passengers’ age and type, null', () => {
  const party = { adults: 1, children: 1 };
  const cases: [string, (p: Wire) => void][] = [
    ['passengers[].type', (p) => (p.type = null)],
    ['passengers[].age', (p) => (p.age = null)],
  ];
  for (const [field, change] of cases) {
    it(`books with ${field} null, each traveller on an offer passenger of their type`, async () => {
      const [offer] = await search(party);
      offers(passengers(change));

      const answer = await duffel.book(each.session, bookingBody(offer, party));

      expect(answer.status).toBe(201);
      const sent = standIn.requests.filter((r) => r.path === '/air/orders').at(-1)?.body as Json;
      expect(sent.data.passengers).toHaveLength(2);
    });
  }
});

describe('duffel mode: order fields, null', () => {
  const orders = (change: (order: Wire) => void) =>
    standIn.reshape('orders.create', (order) => {
      change(order);
      return order;
    });

  const unreadOrder: [string, (order: Wire) => void][] = [
    ['base_amount', (o) => (o.base_amount = null)],
    ['base_currency', (o) => (o.base_currency = null)],
    ['payment_status.paid_at', (o) => (o.payment_status.paid_at = null)],
    ['cancelled_at', (o) => (o.cancelled_at = null)],
    ['cancellation', (o) => (o.cancellation = null)],
    ['slices[].fare_brand_name', slices((s) => (s.fare_brand_name = null))],
    ['passengers[].infant_passenger_id', passengers((p) => (p.infant_passenger_id = null))],
  ];
  for (const [field, change] of unreadOrder) {
    it(`books CONFIRMED as without when the order's ${field} is null`, async () => {
      const [offer] = await search();
      orders(change);

      const answer = await duffel.book(each.session, bookingBody(offer));

      expect(answer.status).toBe(201);
      expect(answer.body.data.status).toBe('CONFIRMED');
    });
  }

  it('holds with our own deadline when the order’s payment_status.payment_required_by is null', async () => {
    const [offer] = await search();
    orders((o) => {
      o.payment_status.payment_required_by = null;
    });

    const answer = await duffel.book(each.session, { ...bookingBody(offer), hold: true });

    expect(answer.status).toBe(201);
    expect(answer.body.data.status).toBe('HELD');
    expect(Date.parse(answer.body.data.payment_required_by)).toBeGreaterThan(testContext.clock.now());
  });

  it('an order without booking_reference (undocumented) is PENDING, then settled with its PNR', async () => {
    const [offer] = await search();
    orders((o) => {
      o.booking_reference = null;
    });

    const answer = await duffel.book(each.session, bookingBody(offer));
    standIn.clearFaults();
    await duffel.sweep();
    const settled = (await duffel.get(each.session, { booking_id: answer.body.data.booking_id })).body.data;

    expect(answer.status).toBe(202);
    expect(answer.body.data.status).toBe('PENDING');
    expect(settled.status).toBe('CONFIRMED');
    expect(settled.pnr).toBe(standIn.orders.get(settled.supplier.order_id)?.booking_reference);
  });
});
