/**
 * Where the service may send SMS codes at its own cost (docs/API.md §3.4): only to the stage's allowed
 * country calling codes, and never to the premium-rate, shared-cost or personal-numbering ranges of
 * those countries, whose callers (and senders) pay the number's owner — the ranges SMS pumping uses.
 * Every country the service can allow is in this table, with the ranges it refuses; a stage may allow
 * only countries listed here (infra/stage-config.ts, shared/config.ts), so no allowed country lacks
 * its list. Ranges are prefixes of the national significant number (after the country code, without
 * the trunk 0): `+44 9…` is the UK's `09…`. Plain data with the plain values of `shared/`, below `auth/`:
 * the configuration checks the stage's countries against it without reaching up into sign-in.
 */
interface CountryRanges {
  readonly country: string;
  /** National-number prefixes refused, each with what it is. */
  readonly refused: Readonly<Record<string, string>>;
}

/** NANP area codes outside the US and Canada: billed as international, a classic SMS-pumping target. */
const NANP_ELSEWHERE = [
  '242',
  '246',
  '264',
  '268',
  '284',
  '345',
  '441',
  '473',
  '649',
  '658',
  '664',
  '721',
  '758',
  '767',
  '784',
  '809',
  '829',
  '849',
  '868',
  '869',
  '876',
];

export const PHONE_RANGES: Readonly<Record<string, CountryRanges>> = {
  '1': {
    country: 'United States and Canada (NANP)',
    refused: {
      '900': 'premium rate',
      '976': 'premium rate (legacy)',
      ...Object.fromEntries(
        NANP_ELSEWHERE.map((area) => [area, 'NANP outside the US and Canada (international rates)']),
      ),
    },
  },
  '33': {
    country: 'France',
    // 08: 081/082 shared cost, 089 premium; 080 is freephone, which receives no SMS either.
    refused: { '8': 'special-rate services (shared cost, premium rate)' },
  },
  '44': {
    country: 'United Kingdom',
    refused: {
      '9': 'premium rate (09)',
      '84': 'shared cost (084)',
      '87': 'shared cost and premium (087)',
      '70': 'personal numbering (070)',
    },
  },
  '49': {
    country: 'Germany',
    refused: {
      '900': 'premium rate (0900)',
      '180': 'shared cost (0180)',
      '137': 'mass calling (0137)',
      '118': 'directory enquiries (0118)',
      '700': 'personal numbering (0700)',
    },
  },
  '353': {
    country: 'Ireland',
    refused: {
      '15': 'premium rate (15xx)',
      '1850': 'shared cost (1850)',
      '1890': 'shared cost (1890)',
      '818': 'shared cost (0818)',
      '700': 'personal numbering (0700)',
    },
  },
};

/**
 * Every country code the table knows: what a stage may allow, and the local default. Kept apart from
 * phone-number-problem.ts so that the functions reading the configuration do not carry
 * libphonenumber's metadata.
 */
export const KNOWN_COUNTRY_CODES = Object.keys(PHONE_RANGES);
