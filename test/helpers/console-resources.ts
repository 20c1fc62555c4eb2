/** The console's screen addresses, as docs/console.md lists them. */
export const CONSOLE_SCREENS = '/ /sign-in /search /book /bookings /agency/agents /agency/webhooks'.split(
  ' ',
);

/**
 * The console's resources on the API, as the stack must deploy them (infra/console.ts): its screen
 * addresses, one booking's, and its assets.
 */
export const CONSOLE_RESOURCES = [...CONSOLE_SCREENS, '/bookings/{proxy+}', '/assets/{file}'];
