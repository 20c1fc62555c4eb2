/** What an agent may do (docs/API.md §3.4): AGENT books; ADMIN also manages the agency's agents. */
export const ROLES = ['AGENT', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/** Agents stored before roles existed have none: they are AGENTs. */
export const roleOf = (stored: unknown): Role => (stored === 'ADMIN' ? 'ADMIN' : 'AGENT');
