import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, currentConsoleBuild } from '../../../infra/web/build.ts';

let build: Awaited<ReturnType<typeof buildConsole>>;
let page: string;
beforeAll(async () => {
  build = await buildConsole(await mkdtemp(join(tmpdir(), 'console-build-')));
  page = readFileSync(join(build.outdir, 'index.html'), 'utf8');
}, 30_000);

describe('the console build', () => {
  it('writes the page and hashed assets, and lists each with its content type', () => {
    expect(build.files[0]).toMatchObject({ path: 'index.html', contentType: 'text/html; charset=utf-8' });
    const assets = build.files.slice(1);
    expect([...new Set(assets.map((file) => file.contentType))].sort()).toEqual([
      'image/svg+xml',
      'text/css; charset=utf-8',
      'text/javascript; charset=utf-8',
    ]);
    for (const file of assets) {
      expect(file.path).toMatch(/^assets\/(boot|main|icon|panel|chunk)-[A-Z0-9]{8}\.(js|css|svg)$/);
      expect(readFileSync(join(build.outdir, file.path)).length).toBe(file.bytes);
    }
  });

  it('has no inline script or style in the page: it loads exactly the built assets from this origin', () => {
    const loaded = [...page.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

    // Split-off chunks (the seat maps and the code they share with the page) are imported, not listed.
    expect(loaded.sort()).toEqual(
      build.files
        .slice(1)
        .filter((file) => !/^assets\/(panel|chunk)-/.test(file.path))
        .map((file) => `/${file.path}`)
        .sort(),
    );
    expect(page).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
    expect(page).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  it('starts with the tiny boot script, so the session check does not wait for the console’s script', () => {
    const scripts = [...page.matchAll(/<script type="module" src="\/(assets\/[^"]+)"><\/script>/g)].map(
      (m) => m[1] ?? '',
    );

    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toMatch(/^assets\/boot-/);
    expect(scripts[1]).toMatch(/^assets\/main-/);
    const boot = readFileSync(join(build.outdir, scripts[0] ?? ''));
    expect(boot.toString()).toContain('/api/auth/session');
    expect(gzipSync(boot).length).toBeLessThan(1024);
  });

  it('keeps the first screen under 50 KB of JavaScript and CSS after gzip (docs/console.md budget)', () => {
    const gzipped = build.files
      .filter((file) => /\.(js|css)$/.test(file.path))
      .reduce((sum, file) => sum + gzipSync(readFileSync(join(build.outdir, file.path))).length, 0);

    expect(gzipped).toBeLessThan(50 * 1024);
  });

  it('loads the seat maps only when opened: their code is a chunk of its own that the page only imports dynamically', () => {
    const panel = build.files.find((file) => /^assets\/panel-/.test(file.path));
    const main = build.files.find((file) => /^assets\/main-.*\.js$/.test(file.path));
    if (!panel || !main) throw new Error('no seat-map chunk or no main script');
    const mainCode = readFileSync(join(build.outdir, main.path), 'utf8');
    const panelName = panel.path.slice('assets/'.length);

    expect(page).not.toContain(panelName);
    expect(mainCode).toMatch(new RegExp(`import\\(["']\\./${panelName.replace('.', '\\.')}["']\\)`));
    expect(mainCode).not.toMatch(new RegExp(`from\\s*["']\\./${panelName.replace('.', '\\.')}["']`));
    expect(readFileSync(join(build.outdir, panel.path), 'utf8')).toContain('Seat map, ');
  });

  it('is reused by npm start while the sources are the same, and rebuilt when they are not', async () => {
    expect(await currentConsoleBuild(build.outdir)).toEqual({ outdir: build.outdir, built: false });

    writeFileSync(join(build.outdir, 'source-hash'), 'an older build');

    expect(await currentConsoleBuild(build.outdir)).toEqual({ outdir: build.outdir, built: true });
    expect(readFileSync(join(build.outdir, 'source-hash'), 'utf8')).toBe(build.sourceHash);
  });
});
