import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { CONSOLE_SCREENS } from '#shared/console/screens.ts';
import { consoleContentType } from '#shared/console/serve.ts';

const root = join(import.meta.dirname, '..', '..');
const webDir = join(root, 'web');

/**
 * How the console is bundled, beside the functions' settings (infra/bundling.ts): minified, hashed
 * file names (so the assets can be cached for a year), Preact's JSX, browsers of the last years. No
 * source map ships: the console is served to browsers that have no use for our sources.
 */
const consoleBundling: BuildOptions = {
  bundle: true,
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari17'],
  platform: 'browser',
  minify: true,
  sourcemap: false,
  entryNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  tsconfig: join(webDir, 'tsconfig.json'),
  // The one list of screens (shared/console/screens.ts) for the router: the console imports nothing
  // of the service, so the build hands it over.
  define: { CONSOLE_SCREENS: JSON.stringify(CONSOLE_SCREENS) },
};

/**
 * Two builds. boot.ts, the page's first script, which starts the session check while main's bundle
 * loads: whole, in one file (split, it would wait for the chunks it shares with the console). The
 * console itself, main.tsx: code loaded only when opened (the seat maps: web/src/seats/hook.tsx) goes
 * to chunks of its own.
 */
const consoleBuilds: BuildOptions[] = [
  { ...consoleBundling, entryPoints: [join(webDir, 'src', 'boot.ts')] },
  {
    ...consoleBundling,
    entryPoints: [join(webDir, 'src', 'main.tsx')],
    splitting: true,
    chunkNames: '[name]-[hash]',
  },
];

interface ConsoleBuildFile {
  /** The path under the build folder: `index.html` or `assets/<name>-<hash>.<ext>`. */
  readonly path: string;
  readonly contentType: string;
  readonly bytes: number;
}

interface ConsoleBuild {
  readonly outdir: string;
  /** Every file the build wrote, the page first. */
  readonly files: ConsoleBuildFile[];
  /** The hash of everything the build is made from (see {@link consoleSourceHash}). */
  readonly sourceHash: string;
}

/** The file in a build folder that records which sources it was built from. */
const SOURCE_HASH_FILE = 'source-hash';

/** The page: icon, stylesheet and script by their hashed names; nothing inline (the CSP forbids it). */
const page = (icon: string, scripts: string[], styles: string[]) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Flight booking console</title>
<link rel="icon" href="/${icon}">
${styles.map((href) => `<link rel="stylesheet" href="/${href}">`).join('\n')}
${scripts.map((src) => `<script type="module" src="/${src}"></script>`).join('\n')}
</head>
<body>
<div id="app"></div>
</body>
</html>
`;

/** Builds the console into `outdir` (emptied first): `index.html` and `assets/`. */
export async function buildConsole(outdir: string): Promise<ConsoleBuild> {
  const sourceHash = await consoleSourceHash();
  await rm(outdir, { recursive: true, force: true });
  const assetsDir = join(outdir, 'assets');
  await mkdir(assetsDir, { recursive: true });
  const results = await Promise.all(
    consoleBuilds.map((options) =>
      build({ ...options, outdir: assetsDir, metafile: true, logLevel: 'silent', absWorkingDir: root }),
    ),
  );
  const written = results.flatMap((result) => Object.entries(result.metafile?.outputs ?? {}));
  const outputs = written.map(([file]) => relative(outdir, join(root, file)));
  // Only the entries are on the page (the chunks split off, the seat maps, load when the page asks),
  // the boot script first: module scripts run in the page's order, each once it has arrived.
  const pageEntries = consoleBuilds.flatMap((options) => options.entryPoints as string[]);
  const scripts = written
    .filter(([, output]) => pageEntries.some((entry) => output.entryPoint === relative(root, entry)))
    .map(([file]) => relative(outdir, join(root, file)))
    .sort((a, b) => Number(b.startsWith('assets/boot-')) - Number(a.startsWith('assets/boot-')));
  const styles = outputs.filter((file) => file.endsWith('.css'));
  // The icon by its own hash, so that browsers stop asking for /favicon.ico (a 404 in every console).
  const iconSvg = await readFile(join(webDir, 'icon.svg'));
  const icon = `assets/icon-${createHash('sha256').update(iconSvg).digest('hex').slice(0, 8).toUpperCase()}.svg`;
  await writeFile(join(outdir, icon), iconSvg);
  outputs.push(icon);
  await writeFile(join(outdir, 'index.html'), page(icon, scripts, styles));
  await writeFile(join(outdir, SOURCE_HASH_FILE), sourceHash);
  const files: ConsoleBuildFile[] = [];
  for (const path of ['index.html', ...outputs]) {
    const contentType = consoleContentType(path);
    if (!contentType) throw new Error(`The console build wrote ${path}, a kind of file it never serves.`);
    files.push({ path, contentType, bytes: (await readFile(join(outdir, path))).length });
  }
  return { outdir, files, sourceHash };
}

/**
 * `outdir` when it holds a build of the current sources, else a fresh build there: `npm start` then
 * starts without building when nothing changed.
 */
export async function currentConsoleBuild(outdir: string): Promise<{ outdir: string; built: boolean }> {
  const recorded = await readFile(join(outdir, SOURCE_HASH_FILE), 'utf8').catch(() => undefined);
  if (recorded === (await consoleSourceHash())) return { outdir, built: false };
  await buildConsole(outdir);
  return { outdir, built: true };
}

/** A hash of every file under web/, the lock file, this file and the bundling settings. */
async function consoleSourceHash(): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify(consoleBuilds));
  const files = (await readdir(webDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of [...files, join(root, 'package-lock.json'), import.meta.filename])
    hash.update(relative(root, file)).update(await readFile(file));
  return hash.digest('hex');
}
