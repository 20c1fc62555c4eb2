import { createHash } from 'node:crypto';
import { open, seal } from '../aead.ts';
import { decodeCanonicalBase64url } from '../base64url.ts';
import type { TravelClass } from './cabins.ts';
import type { PassengerCounts } from './fares.ts';
import type { LocalDate } from './local-time.ts';

/** An offer is good for this long after the search (docs/API.md §4.1). */
export const OFFER_TTL_SECONDS = 20 * 60;

/** Everything a booking needs to know about a quote, recovered from the offer id alone. */
export interface OfferQuote {
  readonly agencyId: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
  readonly travelClass: TravelClass;
  readonly passengers: PassengerCounts;
  /** Every segment the offer sells, journey by journey (outbound first, then the inbound or the next journeys). */
  readonly segments: readonly { flightNumber: string; date: LocalDate; bucket: number }[];
  /** Round trip: the index in `segments` where the inbound journey starts. Absent for one way. */
  readonly inboundFrom?: number;
  /** Multi-city: the index in `segments` where each journey after the first starts. */
  readonly slicesFrom?: readonly number[];
  /** Total for all passengers, in cents. */
  readonly total: number;
  readonly currency: string;
  /** `seats_available` as search showed it. */
  readonly seatsShown: number;
  /** The seal of the conditions search showed (fare-conditions.ts); absent on offers sealed before it. */
  readonly conditions?: string;
}

/** A quote recovered from an offer id, with the identity the booked-offer marker is keyed on. */
export interface OpenedOffer extends OfferQuote {
  /** SHA-256 of the sealed bytes: one per issued offer, whatever text carried it. */
  readonly identity: string;
}

/** Compact wire form inside the sealed id. */
interface Sealed {
  v: 1;
  a: string;
  x: number;
  c: TravelClass;
  p: [number, number, number];
  s: [string, string, number][];
  t: number;
  u: string;
  n: number;
  /** Round trip only: where the inbound segments start. One-way offers sealed before it had none. */
  o?: number;
  /** Multi-city only: where each journey after the first starts. */
  m?: number[];
  /** The seal of the conditions shown (absent on offers sealed before it). */
  k?: string;
}

const PREFIX = 'off_';

/**
 * Seals `payload` into an offer id: AES-256-GCM under a key only the service has. The id is opaque (it
 * reveals nothing), unforgeable (any change fails authentication) and unguessable (random IV); no write
 * is needed at search time. Every supplier's offers are sealed this way, each with its own version tag.
 */
export function sealPayload(key: Uint8Array, payload: object): string {
  return PREFIX + seal(key, Buffer.from(JSON.stringify(payload), 'utf8')).toString('base64url');
}

/**
 * Opens an offer id: the sealed payload, and the identity the booked-offer marker is keyed on (SHA-256
 * of the sealed bytes). Undefined when it was not issued by this service (malformed, tampered, sealed
 * under another key, or spelled in any way but the one issued).
 */
export function openPayload(
  key: Uint8Array,
  offerId: string,
): { payload: unknown; identity: string } | undefined {
  if (!offerId.startsWith(PREFIX) || offerId.length > 2048) return undefined;
  const raw = decodeCanonicalBase64url(offerId.slice(PREFIX.length));
  const text = raw && open(key, raw);
  if (!text) return undefined;
  try {
    return {
      payload: JSON.parse(text.toString('utf8')),
      identity: createHash('sha256').update(raw).digest('base64url'),
    };
  } catch {
    return undefined;
  }
}

/** Seals a network quote into an offer id ({@link sealPayload}). */
export function sealOffer(key: Uint8Array, quote: OfferQuote): string {
  const payload: Sealed = {
    v: 1,
    a: quote.agencyId,
    x: quote.expiresAt,
    c: quote.travelClass,
    p: [quote.passengers.adults, quote.passengers.children, quote.passengers.infants],
    s: quote.segments.map((s) => [s.flightNumber, s.date, s.bucket]),
    t: quote.total,
    u: quote.currency,
    n: quote.seatsShown,
    ...(quote.inboundFrom !== undefined && { o: quote.inboundFrom }),
    ...(quote.slicesFrom !== undefined && { m: [...quote.slicesFrom] }),
    ...(quote.conditions !== undefined && { k: quote.conditions }),
  };
  return sealPayload(key, payload);
}

/**
 * Opens a network offer id. Undefined when it was not issued by this service or is not a network
 * offer; expiry and agency are the caller's to check.
 */
export function openOffer(key: Uint8Array, offerId: string): OpenedOffer | undefined {
  const opened = openPayload(key, offerId);
  // The payload was sealed by this service under its key: its shape is the one sealOffer wrote.
  const sealed = opened?.payload as Sealed | undefined;
  if (!opened || sealed?.v !== 1) return undefined;
  return {
    identity: opened.identity,
    agencyId: sealed.a,
    expiresAt: sealed.x,
    travelClass: sealed.c,
    passengers: { adults: sealed.p[0], children: sealed.p[1], infants: sealed.p[2] },
    segments: sealed.s.map(([flightNumber, date, bucket]) => ({ flightNumber, date, bucket })),
    total: sealed.t,
    currency: sealed.u,
    seatsShown: sealed.n,
    ...(sealed.o !== undefined && { inboundFrom: sealed.o }),
    ...(sealed.m !== undefined && { slicesFrom: sealed.m }),
    ...(sealed.k !== undefined && { conditions: sealed.k }),
  };
}
