import * as z from 'zod/mini';
import { MalformedItemError } from '../db/stored-item.ts';
import type { Role } from './roles.ts';
import type { Session } from './session.ts';
import '../zod-locale.ts';

/** The session route takes no fields; any sent are ignored. Built when first used (http/validate.ts). */
export const sessionRequest = () => z.object({});

/** The caller as `POST /api/auth/session` answers it (docs/API.md §3.3a). */
export interface CurrentSession {
  readonly agent: { id: string; name: string; agency_id: string; identifier: string; role: Role };
  /** The token's expiry, epoch seconds. */
  readonly expiresAt: number;
}

/**
 * Who is calling, from the session the request's one session read made: nothing more is read. The
 * identifier comes from the session state, which mirrors it; a state written before it did (agents
 * stored between 23 and 24 November 2026, until any change of the agent) cannot answer it, and is
 * treated as the malformed item it is for this route (docs/decisions.md, "The session route").
 */
export function currentSession(session: Session): CurrentSession {
  if (session.identifier === undefined) throw new MalformedItemError('session state without identifier');
  return {
    agent: {
      id: session.agentId,
      name: session.agentName,
      agency_id: session.agencyId,
      identifier: session.identifier,
      role: session.role,
    },
    expiresAt: session.expiresAt,
  };
}
