import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, brokenReason, linksOf } from './docs-links';

describe('the documentation links', () => {
  it('lead to a file, a folder or a heading of the repository', () => {
    const broken = brokenLinks().map((link) => `${link.document}:${link.line} ${link.url}: ${link.reason}`);
    expect(broken).toEqual([]);
  });
});

describe('the link checker', () => {
  const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\n\n## Keyset cursors\n\n## Keyset cursors\n\n### `walk` while changing!\n');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const at = (url: string, document = 'README.md') => brokenReason({ document, line: 1, url }, root);

  it('finds links in text, tables and definitions, with their lines', () => {
    const links = linksOf('a.md', 'See [a](docs/a.md).\n\n| x | y |\n|---|---|\n| [b](b.md#c) | 1 |\n\n[d]: docs/d.md\n');
    expect(links.map(({ url, line }) => [url, line])).toEqual([
      ['docs/a.md', 1],
      ['b.md#c', 5],
      ['docs/d.md', 7],
    ]);
  });

  it('slugs headings as GitHub does, numbering repeats', () => {
    expect([...anchorsOf('# Guide\n## Keyset cursors\n## Keyset cursors\n### `walk` while changing!\n')]).toEqual([
      'guide',
      'keyset-cursors',
      'keyset-cursors-1',
      'walk-while-changing',
    ]);
  });

  it('refuses a missing file, a missing heading and a link out of the repository', () => {
    expect(at('docs/guide.md')).toBeUndefined();
    expect(at('docs/guide.md#keyset-cursors-1')).toBeUndefined();
    expect(at('docs')).toBeUndefined();
    expect(at('docs/missing.md')).toBe('no file or folder docs/missing.md');
    expect(at('docs/guide.md#offset-cursors')).toBe('no heading #offset-cursors in docs/guide.md');
    expect(at('../shared/seeds/plan.md')).toBe('leaves the repository');
    expect(at('#guide', 'docs/guide.md')).toBeUndefined();
    expect(at('#nowhere', 'docs/guide.md')).toBe('no heading #nowhere in docs/guide.md');
  });

  it('checks web links for form only, and refuses schemes a reader cannot follow', () => {
    expect(at('https://github.com/paperclipai/paperclip')).toBeUndefined();
    expect(at('https://')).toBe('not a well-formed URL');
    expect(at('javascript:alert(1)')).toBe('a scheme a reader cannot follow');
  });
});
