/** The values a passenger's enumerated fields take (docs/API.md §4.2): the request and the stored booking read them here. */
export const TITLES = ['mr', 'mrs', 'ms', 'miss', 'dr'] as const;
export const GENDERS = ['m', 'f', 'x'] as const;
export const PAX_TYPES = ['ADULT', 'CHILD', 'INFANT'] as const;
export type PaxType = (typeof PAX_TYPES)[number];
