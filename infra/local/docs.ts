import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The Swagger UI files the docs page loads, served from the npm package: no CDN, works offline. */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

/** What the page runs: Swagger UI on the served document. A file, not an inline script, so the CSP allows no inline script. */
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Flight Booking API</title>
  <link rel="icon" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * The page's Content-Security-Policy: only this server's scripts, styles, the document and its "Try it
 * out" calls; images from here or inline `data:` (Swagger UI's icons are SVG data URIs in its
 * stylesheet); never framed (`frame-ancestors 'none'`), no `<base>`, forms only to this server.
 * Swagger UI sets its element styles through the DOM, which `style-src` does not govern, and
 * evaluates no string as code, so neither `'unsafe-inline'` nor `'unsafe-eval'` is needed.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** A 200 with `headers`, and what every docs answer carries: nosniff and the request id. */
function send(
  res: ServerResponse,
  requestId: string,
  body: string | Buffer,
  headers: Record<string, string>,
) {
  res.writeHead(200, { ...headers, 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': requestId });
  res.end(body);
}

/** Answers `GET /docs` and its assets, with the request id every response carries; false for any other path. */
export async function serveDocs(path: string, res: ServerResponse, requestId: string): Promise<boolean> {
  if (path === '/docs' || path === '/docs/') {
    send(res, requestId, PAGE, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': DOCS_CSP,
      'Referrer-Policy': 'no-referrer',
    });
    return true;
  }
  if (path === '/docs/init.js') {
    send(res, requestId, INIT, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    return true;
  }
  const asset = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  // A Map, not an object: `/docs/__proto__` or `/docs/constructor` is no asset, just an unknown path.
  const type = ASSETS.get(asset);
  if (!type) return false;
  const content = await readFile(join(assetsDir, asset));
  send(res, requestId, content, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600' });
  return true;
}
