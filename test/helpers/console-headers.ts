import { consoleResponse } from '#shared/console/serve.ts';

/** The console's Content-Security-Policy as the contract states it: nothing inline, nothing from another origin. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The headers shared/console/serve.ts sends the console's page with, whichever server serves it. */
export function consolePageHeaders(): Record<string, string> {
  const page = new Map([['index.html', { contentType: 'text/html; charset=utf-8', body: '' }]]);
  return consoleResponse('/', page)?.headers ?? {};
}
