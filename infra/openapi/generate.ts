/** `npm run openapi`: writes openapi.json at the repository root from the zod schemas. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApiDocument } from '#shared/openapi/document.ts';

const root = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const file = join(root, 'openapi.json');
await writeFile(file, `${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`);
console.log(`wrote ${file}`);
