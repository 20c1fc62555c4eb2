import * as z from 'zod/mini';
import { IDENTIFIER_FORMS, normalizeIdentifier } from '../auth/identifier.ts';
import { isCalendarDate } from '../flights/local-time.ts';
import '../zod-locale.ts';
import { GENDERS, PAX_TYPES, type PaxType, TITLES } from './entity/passenger-fields.ts';
import { extrasFields } from './extras.ts';

/**
 * Latin letters, accented ones included, with spaces, hyphens and apostrophes; at least one letter.
 * 1-35 code points after NFC (docs/API.md §1): `é` is one character whether sent composed or as `e` plus a
 * combining accent, and the composed form is what is stored.
 */
const NAME_PATTERN = "^(?=.*\\p{Script=Latin})[\\p{Script=Latin}\\p{M} '’-]{1,35}$";

/**
 * A string of printable ASCII is its own NFC, and its Latin-script characters are A-Z and a-z:
 * NAME_PATTERN on such a string alone. Nearly every name is one, and a cold start then neither loads ICU's
 * normaliser nor builds the pattern's Unicode classes (about 7 M instructions of booking create's cold
 * start, BENCHMARKS.md P1). Any other string goes the Unicode way.
 */
const PRINTABLE_ASCII = /^[ -~]*$/;
const ASCII_NAME = /^(?=.*[A-Za-z])[A-Za-z '-]{1,35}$/;
let unicodeName: RegExp | undefined;
function isName(value: string): boolean {
  if (PRINTABLE_ASCII.test(value)) return ASCII_NAME.test(value);
  unicodeName ??= new RegExp(NAME_PATTERN, 'u');
  return unicodeName.test(value);
}

/** Built with the schemas that use it: on first use, never at import (http/validate.ts). */
const name = () =>
  z.string().check(
    z.overwrite((value) => (PRINTABLE_ASCII.test(value) ? value : value.normalize('NFC'))),
    z.refine(isName, 'must be 1-35 Latin letters (accents allowed), spaces, hyphens or apostrophes'),
    z.meta({
      // The pattern first, where a regex check would put it: the document is unchanged.
      pattern: NAME_PATTERN,
      description:
        '1-35 characters (Unicode code points after NFC): Latin letters, space, hyphen, apostrophe',
      minLength: 1,
      maxLength: 35,
    }),
  );

/** The contact's address or number, normalised as sign-in identifiers are. */
function normalized(value: string, type: 'EMAIL' | 'PHONE', ctx: z.core.ParsePayload): string {
  const result = normalizeIdentifier(value, type);
  if (result.ok) return result.identifier;
  // A zod/mini transform has no addIssue: the issue goes straight onto the payload.
  ctx.issues.push({ code: 'custom', message: result.message, input: value });
  return z.NEVER;
}

/**
 * Decimal places of `value` as JSON writes it (shortest round-trip form): `366.004` has 3, `1e-7` has
 * 7, `1e2` has none. Judged on the text, not on `value * 100`, whose float error would let
 * `366.000000001` pass as 2 decimals.
 */
export function decimalPlaces(value: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(value)).split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

/** No price the service quotes comes near this; anything above (`1e400` parses as Infinity) is refused. */
const MAX_MONEY = 99_999_999.99;

/**
 * A price in major units with at most 2 decimals (docs/API.md §1); compared in cents, never as floats.
 * The document says it as `multipleOf: 0.01`, which a validator dividing binary floats must judge with a
 * tolerance (ajv: `multipleOfPrecision: 5`; without it ajv refuses 19.99); the service judges the text.
 */
export const money = () =>
  z.number('must be a number').check(
    z.nonnegative('must not be negative'),
    z.maximum(MAX_MONEY, `must be at most ${MAX_MONEY}`),
    z.refine((value) => decimalPlaces(value) <= 2, 'must have at most 2 decimals'),
    z.meta({ description: 'Major currency units, at most 2 decimals (EUR: cents)', multipleOf: 0.01 }),
  );
export const currency = () => z.string().check(z.regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code'));

let passengerSchema: ReturnType<typeof buildPassenger> | undefined;

/**
 * A passenger in a request, built once on first use: one instance, so that the OpenAPI document finds
 * it inside the create request and names it `Passenger`.
 */
export const passenger = () => (passengerSchema ??= buildPassenger());

const buildPassenger = () =>
  z.object({
    title: z.enum(TITLES),
    first_name: name(),
    last_name: name(),
    pax_type: z.enum(PAX_TYPES),
    gender: z.enum(GENDERS),
    born_on: z.string().check(
      z.refine(isCalendarDate, 'must be a date (YYYY-MM-DD)'),
      z.meta({
        format: 'date',
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description:
          'YYYY-MM-DD, a real calendar date in the past; the age on the first departure date must fit pax_type (ADULT 12+, CHILD 2-11, INFANT under 2)',
      }),
    ),
  });
type Passenger = z.output<ReturnType<typeof passenger>>;

const segment = () =>
  z.object({
    carrier_name: z.string(),
    flight_number: z.string(),
    origin: z.string(),
    destination: z.string(),
    departure_at: z.string(),
  });

/** One direction of the offer: 1-4 segments. */
const Direction = () => z.object({ segments: z.array(segment()).check(z.minLength(1), z.maxLength(4)) });

/**
 * The request of `POST /api/flights/booking/create` (docs/API.md §4.2); every field but `hold` required.
 * Built when first used (http/validate.ts).
 */
export const createBookingRequest = () =>
  z.object({
    flight_id: z
      .string()
      .check(z.minLength(1), z.maxLength(2048), z.meta({ description: 'The id of an offer from search' })),
    flight_details: z
      .object({
        id: z.string(),
        total_price: money(),
        currency: z.string(),
        outbound: Direction(),
        inbound: z
          .optional(Direction())
          .check(z.meta({ description: 'Present exactly when the offer is a round trip' })),
        slices: z.optional(
          z
            .array(Direction())
            .check(
              z.minLength(1),
              z.maxLength(6),
              z.meta({ description: 'Every journey as search returned it; required for a multi-city offer' }),
            ),
        ),
      })
      .check(
        z.meta({
          description: 'The offer as search returned it (at least these fields); it must match the quote',
        }),
      ),
    total_price: money(),
    currency: currency(),
    passengers: z.array(passenger()).check(
      z.minLength(1, 'must list at least one passenger'),
      z.maxLength(18),
      z.meta({
        description:
          'Exactly the passengers searched: as many ADULT, CHILD and INFANT as the offer’s passengers say',
      }),
    ),
    hold: z.optional(
      z.boolean('must be true or false').check(
        z.meta({
          description:
            'Hold the seats instead of confirming at once: the booking is HELD until payment_required_by, then confirmed with booking/confirm or released',
        }),
      ),
    ),
    ...extrasFields(),
    contact: z.object({
      email: z.pipe(
        z.string().check(z.meta(IDENTIFIER_FORMS.EMAIL)),
        z.transform((value, ctx) => normalized(value, 'EMAIL', ctx)),
      ),
      phone: z.pipe(
        z.string().check(z.meta(IDENTIFIER_FORMS.PHONE)),
        z.transform((value, ctx) => normalized(value, 'PHONE', ctx)),
      ),
    }),
  });
export type CreateBookingInput = z.output<ReturnType<typeof createBookingRequest>>;

/** Whole years between `bornOn` and `onDate` (both `YYYY-MM-DD`). */
export function ageOn(bornOn: string, onDate: string): number {
  const years = Number(onDate.slice(0, 4)) - Number(bornOn.slice(0, 4));
  return onDate.slice(5) < bornOn.slice(5) ? years - 1 : years;
}

/** The ages each passenger type must have on the first departure date (docs/API.md §4.2). */
const AGE_RULES: Record<PaxType, { min: number; max: number; text: string }> = {
  ADULT: { min: 12, max: 150, text: 'an ADULT must be 12 or older on the first departure date' },
  CHILD: { min: 2, max: 11, text: 'a CHILD must be 2 to 11 years old on the first departure date' },
  INFANT: { min: 0, max: 1, text: 'an INFANT must be under 2 on the first departure date' },
};

/**
 * Checks the passengers: birth dates must be in the past, always; against the quote when there is one
 * (`offer`), the counts per type must be those searched and ages on the first departure date must fit
 * the types. One detail per problem. Without a quote (an offer never issued to the agency) the rules
 * that need none still answer first: validation comes before 404 (docs/API.md §4.2).
 */
export function passengerProblems(
  passengers: readonly Passenger[],
  offer:
    | { searched: { adults: number; children: number; infants: number }; firstDepartureDate: string }
    | undefined,
  today: string,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const count = (type: PaxType) => passengers.filter((p) => p.pax_type === type).length;
  const got = { adults: count('ADULT'), children: count('CHILD'), infants: count('INFANT') };
  const searched = offer?.searched;
  if (
    searched &&
    (got.adults !== searched.adults || got.children !== searched.children || got.infants !== searched.infants)
  ) {
    problems.push({
      path: 'passengers',
      message: `must be the passengers searched: ${searched.adults} ADULT, ${searched.children} CHILD, ${searched.infants} INFANT (got ${got.adults}, ${got.children}, ${got.infants})`,
    });
  }
  passengers.forEach((passenger, i) => {
    if (passenger.born_on >= today) {
      problems.push({ path: `passengers.${i}.born_on`, message: 'must be in the past' });
      return;
    }
    if (!offer) return;
    const age = ageOn(passenger.born_on, offer.firstDepartureDate);
    const rule = AGE_RULES[passenger.pax_type];
    if (age < rule.min || age > rule.max)
      problems.push({ path: `passengers.${i}.born_on`, message: rule.text });
  });
  return problems;
}
