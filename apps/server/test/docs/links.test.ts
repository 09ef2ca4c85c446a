import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
  .toString()
  .split('\n')
  .filter(
    (file) =>
      /\.(ts|md|json|js)$/.test(file) && !file.endsWith('package-lock.json') && existsSync(join(ROOT, file)),
  );
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchorsOf = (markdown: string): Set<string> =>
  new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      (m[1] ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    ),
  );

describe('the repository explains itself', () => {
  it('has every docs/ file the code and tests cite', () => {
    const cited = new Set(
      files.flatMap((file) => [...read(file).matchAll(/docs\/([a-z-]+\.md)/g)].map((m) => m[1])),
    );
    expect(cited.size).toBeGreaterThan(5);
    expect([...cited].filter((name) => !existsSync(join(ROOT, 'docs', name ?? '')))).toEqual([]);
  });

  it('refers nowhere outside the clone', () => {
    const outside = files.filter(
      (file) =>
        !file.endsWith('links.test.ts') && /\.\.\/shared|CONTRACT\.md|specification §/.test(read(file)),
    );
    expect(outside).toEqual([]);
  });

  it('has no broken relative link or anchor in its Markdown', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const resolved = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
        if (!existsSync(resolved)) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${file}: ${target} (no such heading in ${relative(ROOT, resolved)})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
