/** P2 bundle size: each function's minified bundle against one holding only DynamoDBDocumentClient. */

import { statSync } from 'node:fs';
import { routes } from '../../shared/routes.ts';
import { ratio, type Section, table, verdict } from './lib.ts';
import type { Bench } from './setup.ts';

const SIZE_GOAL = 1.25;

export async function size(bench: Bench): Promise<Section> {
  const bundles = await bench.bundles();
  const ddbOnly = statSync(bundles.ddbOnly).size;
  const ddbSecret = statSync(bundles.ddbSecret).size;
  return {
    title: 'P2 bundle size',
    lines: [
      `Minified bytes of each function's bundle against a bundle holding only DynamoDBDocumentClient (${ddbOnly} bytes, the floor), same esbuild settings. Goal ≤ ${SIZE_GOAL}× the floor.`,
      '',
      table(
        ['function', 'bytes', '× floor', 'goal'],
        [
          ['ddb-only + Secrets Manager client', ddbSecret, ratio(ddbSecret, ddbOnly), 'reference'],
          ...routes.map((r) => {
            const bytes = statSync(bundles.routes.get(r.id) ?? '').size;
            return [r.id, bytes, ratio(bytes, ddbOnly), verdict(bytes / ddbOnly <= SIZE_GOAL)];
          }),
        ],
      ),
    ],
  };
}
