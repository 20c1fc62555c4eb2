import { SessionRequest } from '../auth/current-session.ts';
import { signedInAgent } from './examples.ts';
import type { Operation } from './operation.ts';
import { SessionData, success } from './responses.ts';

/** The routes the agent console needs beyond the others (docs/API.md §3.3a, §4.7). */
export const consoleOperations = {
  session: {
    summary: 'Who is signed in',
    description:
      'The calling agent (with its role as it is now), when the session ends, and whether the token came as the Authorization header or the __Host-session cookie. A browser holding only the HttpOnly cookie learns here, after a reload, who is signed in. Costs the one session read every authenticated route makes. No body is needed.',
    tag: 'Sign-in',
    request: SessionRequest,
    requestExample: {},
    status: 200,
    response: success(SessionData),
    responseExample: {
      success: true,
      data: {
        agent: signedInAgent,
        expires_at: '2026-11-24T10:30:00Z',
        via: 'cookie',
      },
    },
    errors: ['UNAUTHORIZED'],
  },
} satisfies Record<string, Operation>;
