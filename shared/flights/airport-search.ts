import * as z from 'zod/mini';
import '../zod-locale.ts';

/** An airport as airport search answers it (docs/API.md §4.7). */
export interface SellableAirport {
  readonly code: string;
  readonly name: string;
  readonly city: string;
  /** ISO 3166 country code. */
  readonly country: string;
  /** IANA time zone. */
  readonly time_zone: string;
}

const AIRPORT_QUERY_MAX = 64;
const AIRPORT_LIMIT_MAX = 20;

/**
 * `{"query", "limit"?}`: the query counts code points after NFC, as every text limit does. Built when
 * first used (http/validate.ts).
 */
export const airportSearchRequest = () =>
  z.object({
    query: z.string().check(
      z.overwrite((value) => value.normalize('NFC')),
      z.refine(
        (value) => [...value].length >= 1 && [...value].length <= AIRPORT_QUERY_MAX,
        `must be 1-${AIRPORT_QUERY_MAX} characters`,
      ),
      z.meta({
        description: `1-${AIRPORT_QUERY_MAX} characters (code points after NFC): an IATA code, or the start of a city's or an airport's name or of a word in it; case and accents are ignored`,
        minLength: 1,
        maxLength: AIRPORT_QUERY_MAX,
      }),
    ),
    limit: z._default(
      z
        .int('must be an integer')
        .check(
          z.minimum(1, 'must be 1-20'),
          z.maximum(AIRPORT_LIMIT_MAX, 'must be 1-20'),
          z.meta({ description: 'How many airports at most: 1-20, default 10' }),
        ),
      10,
    ),
  });

/** Letters that keep no accent to strip under NFD, spelled as a person without them types them. */
const PLAIN_LETTERS: Readonly<Record<string, string>> = {
  ı: 'i',
  ø: 'o',
  ð: 'd',
  đ: 'd',
  ł: 'l',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  þ: 'th',
};

/**
 * Text as airport search compares it: lower case, accents and apostrophes dropped, every other run
 * of what is neither letter nor digit one space (`São Paulo–Guarulhos` → `sao paulo guarulhos`,
 * `Chicago O'Hare` → `chicago ohare`).
 */
export function foldForSearch(text: string): string {
  // Most names are plain ASCII: the Unicode steps are skipped for them (the index folds thousands).
  const plain = /^[\x20-\x7e]*$/.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFD')
        .toLowerCase()
        .replace(/\p{M}+/gu, '')
        .replace(/[ıøðđłæœßþ]/g, (letter) => PLAIN_LETTERS[letter] ?? letter)
        .replace(/[’‘ʻ]/g, '');
  return plain
    .replace(/['`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface IndexedAirport {
  readonly airport: SellableAirport;
  readonly code: string;
  readonly city: string;
  readonly name: string;
}

/** Prefixes of up to this many characters have buckets; a longer query uses its first three. */
const BUCKET_PREFIX = 3;

/**
 * Positions (ascending, so in answer order) of the airports a tier may hold for a prefix: for
 * `starting`, those whose code, city or name starts with it; for `inside`, those with a later word of
 * the city or name that does. One-character buckets are filed when the index is built; longer ones
 * are filtered from their parent's on first use and kept (only non-empty ones: their number is bounded
 * by the data, whatever queries arrive).
 */
function buckets(
  entries: readonly IndexedAirport[],
  holds: (entry: IndexedAirport, prefix: string) => boolean,
  keys: (entry: IndexedAirport) => readonly string[],
): (prefix: string) => readonly number[] {
  const filed = new Map<string, number[]>();
  entries.forEach((entry, position) => {
    for (const key of keys(entry)) {
      const first = key.slice(0, 1);
      const positions = filed.get(first);
      if (!positions) filed.set(first, [position]);
      else if (positions.at(-1) !== position) positions.push(position);
    }
  });
  const bucket = (prefix: string): readonly number[] => {
    const known = filed.get(prefix);
    if (known || prefix.length <= 1) return known ?? [];
    const positions = bucket(prefix.slice(0, -1)).filter((position) => {
      const entry = entries[position];
      return entry !== undefined && holds(entry, prefix);
    });
    if (positions.length > 0) filed.set(prefix, positions);
    return positions;
  };
  return bucket;
}

/** Airports folded once (per cold start), in answer order for ties: by name, then code. */
interface AirportIndex {
  readonly byName: readonly IndexedAirport[];
  readonly byCode: ReadonlyMap<string, IndexedAirport>;
  readonly starting: (prefix: string) => readonly number[];
  readonly inside: (prefix: string) => readonly number[];
}

export function airportIndex(airports: Iterable<SellableAirport>): AirportIndex {
  const byName = [...airports]
    .map((airport) => ({
      airport,
      code: airport.code.toLowerCase(),
      city: foldForSearch(airport.city),
      name: foldForSearch(airport.name),
    }))
    .sort((a, b) => compare(a.name, b.name) || compare(a.code, b.code));
  return {
    byName,
    byCode: new Map(byName.map((entry) => [entry.code, entry])),
    starting: buckets(byName, startsWith, (entry) => [entry.code, entry.city, entry.name]),
    inside: buckets(byName, startsInside, (entry) => [...innerWords(entry.city), ...innerWords(entry.name)]),
  };
}

/** The first letter of each word after the first: `sao paulo guarulhos` → `p`, `g`. */
function innerWords(text: string): string[] {
  const words: string[] = [];
  for (let at = text.indexOf(' '); at >= 0; at = text.indexOf(' ', at + 1))
    words.push(text.slice(at + 1, at + 2));
  return words;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const startsWith = (entry: IndexedAirport, query: string) =>
  entry.code.startsWith(query) || entry.city.startsWith(query) || entry.name.startsWith(query);

/** A later word of the city or name, read on across the words that follow, starts with `query`. */
const startsInside = (entry: IndexedAirport, query: string) =>
  entry.city.includes(` ${query}`) || entry.name.includes(` ${query}`);

/**
 * The best `limit` airports for `query` (docs/API.md §4.7): the airport whose IATA code it is, then
 * those whose code, city or name starts with it, then those with a later word of the city or name
 * that does; ties by name. Each tier walks only its bucket for the query's first 1-3 characters, in
 * name order, and stops once it has enough.
 */
export function searchAirports(index: AirportIndex, query: string, limit: number): SellableAirport[] {
  const folded = foldForSearch(query);
  if (!folded) return [];
  const prefix = folded.slice(0, BUCKET_PREFIX);
  const exact = index.byCode.get(folded);
  const found: SellableAirport[] = exact ? [exact.airport] : [];
  for (const position of index.starting(prefix)) {
    if (found.length >= limit) return found;
    const entry = index.byName[position];
    if (entry && entry !== exact && startsWith(entry, folded)) found.push(entry.airport);
  }
  for (const position of index.inside(prefix)) {
    if (found.length >= limit) return found;
    const entry = index.byName[position];
    if (entry && entry !== exact && !startsWith(entry, folded) && startsInside(entry, folded))
      found.push(entry.airport);
  }
  return found;
}
