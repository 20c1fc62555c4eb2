import { randomBytes } from 'node:crypto';
import type {} from '@duffel/api';
import type { Offer } from '@duffel/api/types';
import { describe, expect, it } from 'vitest';
import { createSearchRequest } from '#shared/flights/search-request.ts';
import { decimalAmount, minorUnits, toMajor } from '#shared/money.ts';
import {
  conditionsFromOffer,
  flightFromOffer,
  offerRequestBody,
  openDuffelOffer,
  SEARCH_AGE,
  utcInstant,
} from '#shared/supply/duffel/mapping.ts';
import { orderFieldPath } from '#shared/supply/duffel/refusals.ts';
import { offersFor } from '../../../infra/local/duffel-stand-in-data.ts';

const key = randomBytes(32);
const now = Date.UTC(2027, 2, 1, 12, 0, 0);
const parse = createSearchRequest({ now: () => now });
const search = (body: Record<string, unknown>) => {
  const parsed = parse.safeParse({
    origin: 'LHR',
    destination: 'JFK',
    departure_date: '2027-03-28',
    ...body,
  });
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return parsed.data;
};
/** Duffel offers for a search, built by the stand-in from the request we send. */
const duffelOffers = (body: Record<string, unknown>, currency = 'GBP', ttl = 1800): Offer[] =>
  offersFor(offerRequestBody(search(body)), { currency, now, offerTtlSeconds: ttl }).offers;
const request = {
  agencyId: 'a1',
  travelClass: 'ECONOMY' as const,
  passengers: { adults: 1, children: 0, infants: 0 },
  now,
};

describe('Duffel mapping: times', () => {
  it('turns local times into UTC across the start of summer time at either end', () => {
    // Europe/London springs forward at 01:00 UTC on 28 March 2027; New York on 14 March.
    expect(utcInstant('2027-03-27T08:15:00', 'Europe/London')).toBe(Date.UTC(2027, 2, 27, 8, 15));
    expect(utcInstant('2027-03-28T08:15:00', 'Europe/London')).toBe(Date.UTC(2027, 2, 28, 7, 15));
    expect(utcInstant('2027-03-13T19:05:00', 'America/New_York')).toBe(Date.UTC(2027, 2, 14, 0, 5));
    expect(utcInstant('2027-03-14T19:05:00', 'America/New_York')).toBe(Date.UTC(2027, 2, 14, 23, 5));
  });

  it('turns local times into UTC across the end of summer time, in a zone the network does not serve', () => {
    // Australia/Adelaide (+10:30 → +09:30 on 4 April 2027); Lord Howe (+11:00 → +10:30) by half an hour.
    expect(utcInstant('2027-04-03T10:00:00', 'Australia/Adelaide')).toBe(Date.UTC(2027, 3, 2, 23, 30));
    expect(utcInstant('2027-04-04T10:00:00', 'Australia/Adelaide')).toBe(Date.UTC(2027, 3, 4, 0, 30));
    expect(utcInstant('2027-04-04T10:00:00', 'Australia/Lord_Howe')).toBe(Date.UTC(2027, 3, 3, 23, 30));
    expect(utcInstant('not a time', 'Europe/London')).toBeUndefined();
  });

  it('maps an offer departing on the day London changes clocks: UTC times, durations, marketing carrier', () => {
    const [offer] = duffelOffers({});
    const mapped = offer && flightFromOffer(offer, request, key);
    const segment = mapped?.flight.outbound.segments[0];

    expect(segment).toMatchObject({
      carrier_code: 'ZZ',
      carrier_name: 'Duffel Airways',
      origin: 'LHR',
      destination: 'JFK',
      departure_at: '2027-03-28T07:15:00Z',
    });
    expect(segment?.flight_number).toMatch(/^ZZ\d+$/);
    const minutes =
      (Date.parse(segment?.arrival_at ?? '') - Date.parse(segment?.departure_at ?? '')) / 60_000;
    expect(segment?.duration_minutes).toBe(minutes);
    expect(mapped?.flight.seats_available).toBeNull();
  });
});

describe('Duffel mapping: offers and requests', () => {
  it('asks for both slices of a round trip, passengers by type and age, the cabin and connections', () => {
    const body = offerRequestBody(
      search({
        return_date: '2027-04-04',
        adults: 2,
        children: 1,
        infants: 1,
        travel_class: 'PREMIUM_ECONOMY',
        max_connections: 0,
      }),
    );

    expect(body).toEqual({
      slices: [
        {
          origin: 'LHR',
          destination: 'JFK',
          departure_date: '2027-03-28',
          departure_time: null,
          arrival_time: null,
        },
        {
          origin: 'JFK',
          destination: 'LHR',
          departure_date: '2027-04-04',
          departure_time: null,
          arrival_time: null,
        },
      ],
      passengers: [
        { type: 'adult' },
        { type: 'adult' },
        { age: SEARCH_AGE.child },
        { age: SEARCH_AGE.infant },
      ],
      cabin_class: 'premium_economy',
      max_connections: 0,
    });
    expect(offerRequestBody(search({ travel_class: 'FIRST' })).cabin_class).toBe('first');
    expect(offerRequestBody(search({ travel_class: 'BUSINESS' })).cabin_class).toBe('business');
  });

  it('maps a round trip both ways, sealing Duffel’s offer id and the quote in our id (a round trip)', () => {
    const [offer] = duffelOffers({ return_date: '2027-04-04' });
    const mapped = offer && flightFromOffer(offer, request, key);
    const opened = mapped && openDuffelOffer(key, mapped.flight.id);

    expect(mapped?.flight.inbound?.segments[0]).toMatchObject({ origin: 'JFK', destination: 'LHR' });
    expect(opened).toMatchObject({
      duffelOfferId: offer?.id,
      total: minorUnits(offer?.total_amount ?? '', 'GBP'),
      currency: 'GBP',
      agencyId: 'a1',
      firstDepartureDate: '2027-03-28',
    });
    expect(openDuffelOffer(randomBytes(32), mapped?.flight.id ?? '')).toBeUndefined();
  });

  it('expires at the earlier of Duffel’s expiry and 20 minutes', () => {
    const [long] = duffelOffers({}, 'GBP', 3600);
    const [short] = duffelOffers({}, 'GBP', 300);

    expect(long && flightFromOffer(long, request, key)?.flight.expires_at).toBe('2027-03-01T12:20:00Z');
    expect(short && flightFromOffer(short, request, key)?.flight.expires_at).toBe('2027-03-01T12:05:00Z');
  });

  it('keeps the supplier’s currency, in minor units without floats: GBP and JPY', () => {
    const [pounds] = duffelOffers({}, 'GBP');
    const [yen] = duffelOffers({}, 'JPY');
    const inPounds = pounds && flightFromOffer(pounds, request, key)?.flight;
    const inYen = yen && flightFromOffer(yen, request, key)?.flight;

    expect(inPounds?.currency).toBe('GBP');
    expect(inPounds?.total_price).toBe(Number(pounds?.total_amount));
    expect(inYen?.currency).toBe('JPY');
    expect(Number.isInteger(inYen?.total_price)).toBe(true);
    expect(String(inYen?.total_price)).toBe(yen?.total_amount);
  });
});

describe('money', () => {
  it('reads decimal strings digit by digit and writes them back', () => {
    expect(minorUnits('412.40', 'EUR')).toBe(41240);
    expect(minorUnits('0.07', 'GBP')).toBe(7);
    expect(minorUnits('1000000.10', 'USD')).toBe(100000010);
    expect(minorUnits('9800', 'JPY')).toBe(9800);
    expect(minorUnits('12.5', 'JPY')).toBeUndefined();
    expect(minorUnits('1.001', 'EUR')).toBeUndefined();
    expect(minorUnits('-1.00', 'EUR')).toBeUndefined();
    expect(minorUnits('1e3', 'EUR')).toBeUndefined();
    expect(minorUnits('10.000', 'KWD')).toBeUndefined();
    expect(minorUnits('10', 'KWD')).toBeUndefined();
    expect(decimalAmount(41240, 'EUR')).toBe('412.40');
    expect(decimalAmount(7, 'GBP')).toBe('0.07');
    expect(decimalAmount(9800, 'JPY')).toBe('9800');
    expect(decimalAmount(-2550, 'EUR')).toBe('-25.50');
    expect(decimalAmount(-7, 'GBP')).toBe('-0.07');
    expect(toMajor(41240, 'EUR')).toBe(412.4);
    expect(toMajor(9800, 'JPY')).toBe(9800);
  });

  it('round-trips every amount of cents up to 10,000.00', () => {
    for (let cents = 0; cents <= 1_000_000; cents += 7) {
      expect(minorUnits(decimalAmount(cents, 'EUR'), 'EUR')).toBe(cents);
    }
  });
});

describe('Duffel fields to ours', () => {
  it('names our passenger field for Duffel’s, through the order the passengers were sent in', () => {
    expect(orderFieldPath('passengers[1].family_name', [0, 2])).toBe('passengers.2.last_name');
    expect(orderFieldPath('passengers[0].given_name', [1, 0])).toBe('passengers.1.first_name');
    expect(orderFieldPath('passengers[0].phone_number', [0])).toBe('contact.phone');
    expect(orderFieldPath('passengers[0].email', [0])).toBe('contact.email');
    expect(orderFieldPath('passengers[3].born_on', [0])).toBeUndefined();
    expect(orderFieldPath('payments[0].amount', [0])).toBeUndefined();
  });
});

describe('Duffel mapping: fare conditions', () => {
  const allowed = (amount: string | null, currency: string | null) => ({
    allowed: true as const,
    penalty_amount: amount,
    penalty_currency: currency,
  });
  const refused = { allowed: false as const, penalty_amount: null, penalty_currency: null };

  it('maps Duffel’s offer conditions into ours: a penalty in its own currency, 0 for free, none when refused', () => {
    expect(
      conditionsFromOffer({
        refund_before_departure: allowed('45.50', 'USD'),
        change_before_departure: refused,
      }),
    ).toEqual({
      refund_before_departure: { allowed: true, penalty: { amount: 45.5, currency: 'USD' } },
      change_before_departure: { allowed: false, penalty: null },
    });
    expect(
      conditionsFromOffer({ refund_before_departure: allowed('0.00', 'GBP'), change_before_departure: null }),
    ).toEqual({
      refund_before_departure: { allowed: true, penalty: { amount: 0, currency: 'GBP' } },
      change_before_departure: null,
    });
  });

  it('answers null where Duffel says nothing, and an unknown or unreadable penalty as none stated', () => {
    expect(conditionsFromOffer({ refund_before_departure: null, change_before_departure: null })).toEqual({
      refund_before_departure: null,
      change_before_departure: null,
    });
    expect(conditionsFromOffer(undefined)).toEqual({
      refund_before_departure: null,
      change_before_departure: null,
    });
    expect(
      conditionsFromOffer({
        refund_before_departure: allowed(null, null),
        change_before_departure: allowed('1.234', 'KWD'),
      }),
    ).toEqual({
      refund_before_departure: { allowed: true, penalty: null },
      change_before_departure: { allowed: true, penalty: null },
    });
  });

  it('maps each slice’s own conditions onto its journey, beside the offer’s as the trip’s', () => {
    const offers = duffelOffers({ return_date: '2027-04-04' });
    for (const offer of offers) {
      const flight = flightFromOffer(offer, request, key)?.flight;
      if (!flight) throw new Error('offer not mapped');
      expect(flight.conditions).toEqual(conditionsFromOffer(offer.conditions));
      for (const [i, slice] of offer.slices.entries()) {
        expect(flight.slices[i]?.conditions).toEqual(conditionsFromOffer(slice.conditions));
      }
      expect(flight.outbound).toBe(flight.slices[0]);
      expect(flight.inbound).toBe(flight.slices[1]);
    }
    // The stand-in states a day slice's conditions and leaves an evening slice's unstated.
    const journeys = offers.flatMap((offer) => flightFromOffer(offer, request, key)?.flight.slices ?? []);
    expect(journeys.filter((j) => j.conditions.refund_before_departure === null)).toHaveLength(6);
    expect(journeys.filter((j) => j.conditions.refund_before_departure?.allowed)).toHaveLength(12);
  });

  it('gives every Flight the stand-in’s offer conditions: stated by day, unstated (null) with an evening flight', () => {
    const offers = duffelOffers({ return_date: '2027-04-04' });
    const flights = offers.map((offer) => flightFromOffer(offer, request, key)?.flight);
    const stated = flights.filter((f) => f?.conditions.refund_before_departure !== null);

    // Three departures each way: the four pairs without an evening flight state their conditions.
    expect(stated).toHaveLength(4);
    for (const [i, flight] of flights.entries()) {
      const offer = offers[i];
      const total = offer && minorUnits(offer.total_amount, offer.total_currency);
      if (!flight || total === undefined) throw new Error('offer not mapped');
      if (flight.conditions.refund_before_departure === null) {
        expect(flight.conditions.change_before_departure).toBeNull();
        continue;
      }
      // The penalty is what the stand-in's cancellation keeps: the price less its 90 % refund.
      expect(flight.conditions.refund_before_departure).toEqual({
        allowed: true,
        penalty: { amount: toMajor(total - Math.floor((total * 9) / 10), 'GBP'), currency: 'GBP' },
      });
    }
  });
});

describe('Duffel mapping: what a fare includes', () => {
  it('splits the price as Duffel states it: one passenger type gets base and taxes, several get nulls', () => {
    const [adultsOnly] = duffelOffers({ adults: 2 });
    const [family] = duffelOffers({ adults: 2, children: 1, infants: 1 });
    if (!adultsOnly || !family) throw new Error('no offers');
    const two = flightFromOffer(
      adultsOnly,
      { ...request, passengers: { adults: 2, children: 0, infants: 0 } },
      key,
    );
    const mixed = flightFromOffer(
      family,
      { ...request, passengers: { adults: 2, children: 1, infants: 1 } },
      key,
    );

    expect(two?.flight.price_breakdown).toEqual([
      {
        pax_type: 'ADULT',
        count: 2,
        base: Number(adultsOnly.base_amount),
        taxes: Number(adultsOnly.tax_amount),
        total: Number(adultsOnly.total_amount),
      },
    ]);
    expect(Math.round((Number(adultsOnly.base_amount) + Number(adultsOnly.tax_amount)) * 100)).toBe(
      Math.round(Number(adultsOnly.total_amount) * 100),
    );
    expect(mixed?.flight.price_breakdown).toEqual([
      { pax_type: 'ADULT', count: 2, base: null, taxes: null, total: null },
      { pax_type: 'CHILD', count: 1, base: null, taxes: null, total: null },
      { pax_type: 'INFANT', count: 1, base: null, taxes: null, total: null },
    ]);
    // Taxes Duffel does not state (or states in another currency) are null, the total still given.
    const unstated = flightFromOffer({ ...adultsOnly, tax_amount: null, tax_currency: null }, request, key);
    const foreign = flightFromOffer({ ...adultsOnly, base_currency: 'USD' }, request, key);
    expect(unstated?.flight.price_breakdown[0]).toMatchObject({
      taxes: null,
      total: Number(adultsOnly.total_amount),
    });
    expect(foreign?.flight.price_breakdown[0]?.base).toBeNull();
  });

  it('reads each slice’s bags per passenger type from its segments’ passengers, and its fare brand', () => {
    const offers = duffelOffers({ adults: 1, children: 1, infants: 1, return_date: '2027-04-04' });
    const party = { adults: 1, children: 1, infants: 1 };
    for (const offer of offers) {
      const flight = flightFromOffer(offer, { ...request, passengers: party }, key)?.flight;
      if (!flight) throw new Error('offer not mapped');
      for (const [i, slice] of flight.slices.entries()) {
        expect(slice.baggage).toEqual([
          { pax_type: 'ADULT', carry_on: 1, checked: 1 },
          { pax_type: 'CHILD', carry_on: 1, checked: 1 },
          { pax_type: 'INFANT', carry_on: 0, checked: 0 },
        ]);
        expect(slice.fare_brand).toBe(offer.slices[i]?.fare_brand_name);
      }
    }
    const [first] = offers;
    if (!first) throw new Error('no offers');
    const noBrand = { ...first, slices: first.slices.map((s) => ({ ...s, fare_brand_name: null })) };
    expect(
      flightFromOffer(noBrand, { ...request, passengers: party }, key)?.flight.outbound.fare_brand,
    ).toBeNull();
  });
});
