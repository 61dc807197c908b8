/**
 * Cutting a release writes what the pending changesets say into the packages' CHANGELOGs: the
 * release workflow runs `changeset version`, and this test runs it on a copy of the repository's
 * manifests, changesets and CHANGELOGs, then finds each changeset's words under each package it
 * names.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** The workspace manifests, the changesets and the CHANGELOGs git tracks. */
function releaseInputs(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  return listed.filter((file) => /(^|\/)package\.json$|(^|\/)CHANGELOG\.md$|^\.changeset\//.test(file));
}

interface PendingChangeset {
  file: string;
  packages: string[];
  firstLine: string;
}

function pendingChangesets(folder: string): PendingChangeset[] {
  return readdirSync(join(folder, '.changeset'))
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(folder, '.changeset', file), 'utf8');
      const [, frontMatter = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
      const bumps = (parseYaml(frontMatter) ?? {}) as Record<string, string>;
      return { file, packages: Object.keys(bumps), firstLine: body.trim().split('\n')[0] ?? '' };
    });
}

const manifestOf = (folder: string, name: string) =>
  releaseInputs()
    .filter((file) => file.endsWith('package.json'))
    .map((file) => ({ file, manifest: JSON.parse(readFileSync(join(folder, file), 'utf8')) as { name?: string; private?: boolean } }))
    .find(({ manifest }) => manifest.name === name);

describe('cutting a release', () => {
  const copy = mkdtempSync(join(tmpdir(), 'release-changelogs-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('writes every pending changeset into the CHANGELOG of each package it names', () => {
    for (const file of releaseInputs()) {
      mkdirSync(join(copy, dirname(file)), { recursive: true });
      copyFileSync(join(root, file), join(copy, file));
    }
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const pending = pendingChangesets(copy);
    expect(pending.length).toBeGreaterThan(0);

    execFileSync(process.execPath, [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], { cwd: copy, stdio: 'pipe' });

    const missing: string[] = [];
    for (const changeset of pending) {
      expect(changeset.firstLine, `${changeset.file} says nothing`).not.toBe('');
      for (const name of changeset.packages) {
        const found = manifestOf(copy, name);
        if (found === undefined) {
          missing.push(`${changeset.file}: no package ${name}`);
          continue;
        }
        const changelog = readFileSync(join(copy, dirname(found.file), 'CHANGELOG.md'), 'utf8');
        if (!changelog.includes(changeset.firstLine)) missing.push(`${changeset.file}: not in the CHANGELOG of ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md')).toEqual([]);
  });
});
