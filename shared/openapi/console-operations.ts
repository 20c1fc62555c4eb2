import * as zod from 'zod/mini';
import { sessionRequest } from '../auth/current-session.ts';
import { refreshRequest } from '../auth/refresh.ts';
import { airportSearchRequest } from '../flights/airport-search.ts';
import { signedInAgent } from './examples.ts';
import type { Operation } from './operation.ts';
import { AirportData, SessionData, success, VerifyOtpData } from './responses.ts';

/** The routes the agent console needs beyond the others (docs/API.md §3.3a, §4.7). */
export const consoleOperations = {
  session: {
    summary: 'Who is signed in',
    description:
      'The calling agent (with its role as it is now), when the session ends, and whether the token came as the Authorization header or the __Host-session cookie. A browser holding only the HttpOnly cookie learns here, after a reload, who is signed in. Costs the one session read every authenticated route makes. No body is needed.',
    tag: 'Sign-in',
    request: sessionRequest(),
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
  refresh: {
    summary: 'Refresh the session',
    description:
      'A fresh session token for a live session (token or __Host-session cookie) signed in less than 12 hours ago, answered like verify-otp and set as the cookie; the presented token is revoked. The sign-in time carries over: the fresh token lives 1 hour, or until 12 hours after the sign-in if that is sooner (expires_in says which), so no session outlives 12 hours without a new code. With "cookie_only": true, no verification_token or token_type in the body. A revoked, expired, deactivated or 12-hour-old session: 401 UNAUTHORIZED.',
    tag: 'Sign-in',
    request: refreshRequest(),
    requestExample: { cookie_only: true },
    status: 200,
    response: success(VerifyOtpData),
    responseExample: {
      success: true,
      data: { expires_in: 3600, expires_at: '2026-11-24T11:30:00Z', agent: signedInAgent },
    },
    errors: ['UNAUTHORIZED'],
    setsCookie: true,
  },
  'airports-search': {
    summary: 'Find airports',
    description:
      "Airports the stage's supplier can sell, for a departure or arrival field: the built-in network's served airports, or with Duffel every airport with an IATA code in the bundled Open Travel Data. Case and accents are ignored (sao finds São Paulo). The airport whose IATA code the query is comes first, then airports whose code, city or name starts with the query, then those with a later word of the city or name that does; ties by name. No match is an empty list.",
    tag: 'Flights',
    request: airportSearchRequest(),
    requestExample: { query: 'lon', limit: 3 },
    status: 200,
    response: success(zod.array(AirportData), zod.object({ count: zod.int() })),
    responseExample: {
      success: true,
      data: [
        {
          code: 'LCY',
          name: 'London City Airport',
          city: 'London',
          country: 'GB',
          time_zone: 'Europe/London',
        },
        {
          code: 'LGW',
          name: 'London Gatwick Airport',
          city: 'London',
          country: 'GB',
          time_zone: 'Europe/London',
        },
        {
          code: 'LHR',
          name: 'London Heathrow Airport',
          city: 'London',
          country: 'GB',
          time_zone: 'Europe/London',
        },
      ],
      meta: { count: 3 },
    },
    errors: ['UNAUTHORIZED'],
  },
} satisfies Record<string, Operation>;
