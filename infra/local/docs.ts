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
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null, defaultModelsExpandDepth: 0 });
  </script>
</body>
</html>
`;

/** Answers `GET /docs` and its assets, with the request id every response carries; false for any other path. */
export async function serveDocs(path: string, res: ServerResponse, requestId: string): Promise<boolean> {
  if (path === '/docs' || path === '/docs/') {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': requestId,
    });
    res.end(PAGE);
    return true;
  }
  const asset = path.startsWith('/docs/') ? path.slice('/docs/'.length) : '';
  // A Map, not an object: `/docs/__proto__` or `/docs/constructor` is no asset, just an unknown path.
  const type = ASSETS.get(asset);
  if (!type) return false;
  const content = await readFile(join(assetsDir, asset));
  res.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': 'public, max-age=3600',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
  });
  res.end(content);
  return true;
}
