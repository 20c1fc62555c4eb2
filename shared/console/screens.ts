/**
 * The console's screens (docs/console.md, Screens and addresses): the one list the page's router,
 * the server and the stack read. The router gets it through the build (infra/web/build.ts defines
 * `CONSOLE_SCREENS` in the bundle: the console imports nothing of the service); the server answers
 * each address with the page (serve.ts, for the dev server and the deployed function alike); the
 * stack makes an API resource of each (infra/console.ts). `{booking_id}` stands for a path segment.
 * `who`: `anyone` before signing in; an AGENT or ADMIN otherwise (an AGENT is told the ADMIN ones
 * are not allowed).
 */
export const CONSOLE_SCREENS = [
  { path: '/', who: 'anyone' },
  { path: '/sign-in', who: 'anyone' },
  { path: '/search', who: 'AGENT' },
  { path: '/book', who: 'AGENT' },
  { path: '/bookings', who: 'AGENT' },
  { path: '/bookings/{booking_id}', who: 'AGENT' },
  { path: '/agency/agents', who: 'ADMIN' },
  { path: '/agency/webhooks', who: 'ADMIN' },
] as const;
