import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const documents = [
  'README.md',
  'SECURITY.md',
  'BENCHMARKS.md',
  ...readdirSync('docs').map((f) => join('docs', f)),
].filter((file) => file.endsWith('.md') && existsSync(file));

/** The anchors GitHub gives a Markdown file's headings (outside code blocks), duplicates numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative link of the project's Markdown documents: [text](target), outside code blocks. */
const links = documents.flatMap((file) => {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => [file, target] as const);
});

describe('documentation links', () => {
  it('finds relative links to check', () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it.each(links)('%s → %s points at a file and heading that exist', (file, target) => {
    const [path = '', anchor] = target.split('#');
    const linked = path === '' ? file : normalize(join(dirname(file), path));

    expect(existsSync(linked), `${linked} exists`).toBe(true);
    if (anchor !== undefined && linked.endsWith('.md')) expect([...anchorsOf(linked)]).toContain(anchor);
  });
});
