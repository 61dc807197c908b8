/**
 * `npm run check-structure` fails on each fault it promises to catch, shown on small fixture
 * repositories written to a temporary folder, and passes on this repository.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRepositoryStructure } from './structure/check-structure';
import { dynamicImportSpecifiers } from './structure/dynamic-imports';
import { namesSpecifier } from './structure/readme-entry-points';

const repositoryRoot = join(import.meta.dirname, '..');

/** A package of a fixture repository; everything left out is a well-formed default. */
interface FixturePackage {
  folder: string;
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  /** Subpaths beyond `.` and `./package.json`, such as `./sqlite`. */
  subpaths?: string[];
  /** The README; by default a heading for the package and a table row for each subpath. */
  readme?: string;
  /** More files, by path inside the package. */
  files?: Record<string, string>;
}

const entry = (file: string) => ({
  import: { types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` },
  require: { types: `./dist/${file}.d.cts`, default: `./dist/${file}.cjs` },
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fixture repository (root LICENSE, workspaces `packages/*` and `adapters/*`) holding the packages given. */
function fixtureRepository(packages: FixturePackage[]): string {
  const root = mkdtempSync(join(tmpdir(), 'memplane-structure-'));
  roots.push(root);
  copyFileSync(join(repositoryRoot, 'LICENSE'), join(root, 'LICENSE'));
  write(join(root, 'package.json'), JSON.stringify({ name: 'fixture', private: true, workspaces: ['packages/*', 'adapters/*'] }));
  for (const fixture of packages) {
    const folder = join(root, fixture.folder);
    const subpaths = fixture.subpaths ?? [];
    const manifest = {
      name: fixture.name,
      version: '0.1.0',
      ...(fixture.private === true ? { private: true } : {}),
      license: 'Apache-2.0',
      keywords: ['memplane'],
      homepage: `https://example.com/${fixture.folder}`,
      bugs: { url: 'https://example.com/issues' },
      repository: { type: 'git', url: 'git+https://example.com/memplane.git', directory: fixture.folder },
      type: 'module',
      sideEffects: false,
      engines: { node: '>=20.19' },
      exports: Object.fromEntries([['.', entry('index')], ...subpaths.map((subpath) => [subpath, entry(subpath.slice(2))]), ['./package.json', './package.json']]),
      files: ['dist', 'LICENSE'],
      dependencies: fixture.dependencies,
      peerDependencies: fixture.peerDependencies,
      optionalDependencies: fixture.optionalDependencies,
      devDependencies: fixture.devDependencies,
    };
    write(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
    const readme = fixture.readme ?? [`# ${fixture.name}`, '', '| entry point | what it is |', '|---|---|', ...subpaths.map((subpath) => `| \`${fixture.name}${subpath.slice(1)}\` | a subpath |`), ''].join('\n');
    const files: Record<string, string> = {
      'README.md': readme,
      'CHANGELOG.md': `# ${fixture.name}\n`,
      'src/index.ts': 'export const value = 1;\n',
      'tsup.config.ts': 'export default {};\n',
      'vitest.config.ts': 'export default {};\n',
      'tsconfig.json': '{}\n',
      ...fixture.files,
    };
    for (const [path, text] of Object.entries(files)) write(join(folder, path), text);
    copyFileSync(join(repositoryRoot, 'LICENSE'), join(folder, 'LICENSE'));
  }
  return root;
}

const service = (more: Partial<FixturePackage> = {}): FixturePackage => ({ folder: 'packages/service', name: '@memplane/service', ...more });
const postgres = (more: Partial<FixturePackage> = {}): FixturePackage => ({
  folder: 'packages/service-postgres',
  name: '@memplane/service-postgres',
  dependencies: { '@memplane/service': '^0.1.0' },
  ...more,
});
const memoryAdapter: FixturePackage = { folder: 'adapters/memory', name: '@memplane/memory' };
const problemsOf = (packages: FixturePackage[]) => checkRepositoryStructure(fixtureRepository(packages)).problems;

describe('the structure check on fixture repositories', () => {
  it('passes a well-formed repository: dev-only links, a computed import and imports in tests make no fault', () => {
    const report = checkRepositoryStructure(
      fixtureRepository([
        service({
          devDependencies: { '@memplane/memory': '^0.1.0', '@memplane/service-postgres': '^0.1.0' },
          subpaths: ['./testing'],
          files: {
            'src/load.ts': 'export const load = (name: string) => import(name);\n',
            'src/postgres.test.ts': "await import('@memplane/service-postgres');\n",
          },
        }),
        postgres(),
        memoryAdapter,
      ]),
    );
    expect(report).toEqual({ packages: 3, problems: [] });
  });

  it('still reports a skeleton gap', () => {
    const root = fixtureRepository([service()]);
    rmSync(join(root, 'packages/service/CHANGELOG.md'));
    expect(checkRepositoryStructure(root).problems).toEqual(['packages/service (@memplane/service): missing CHANGELOG.md']);
  });

  describe('package cycles', () => {
    it('fails on a cycle through dependencies', () => {
      expect(problemsOf([service({ dependencies: { '@memplane/service-postgres': '^0.1.0' } }), postgres()])).toEqual([
        'package cycle: @memplane/service → @memplane/service-postgres (dependencies) → @memplane/service (dependencies)',
      ]);
    });

    it('fails on a cycle through peerDependencies and through optionalDependencies', () => {
      expect(problemsOf([service({ peerDependencies: { '@memplane/service-postgres': '^0.1.0' } }), postgres()])).toEqual([
        'package cycle: @memplane/service → @memplane/service-postgres (peerDependencies) → @memplane/service (dependencies)',
      ]);
      const optional = postgres({ dependencies: {}, optionalDependencies: { '@memplane/service': '^0.1.0' } });
      expect(problemsOf([service({ dependencies: { '@memplane/service-postgres': '^0.1.0' } }), optional])).toEqual([
        'package cycle: @memplane/service → @memplane/service-postgres (dependencies) → @memplane/service (optionalDependencies)',
      ]);
    });

    it('fails on a longer cycle, and names it once', () => {
      const problems = problemsOf([
        { folder: 'packages/a', name: '@memplane/a', dependencies: { '@memplane/b': '^0.1.0' } },
        { folder: 'packages/b', name: '@memplane/b', dependencies: { '@memplane/c': '^0.1.0' } },
        { folder: 'packages/c', name: '@memplane/c', peerDependencies: { '@memplane/a': '^0.1.0' } },
      ]);
      expect(problems).toEqual(['package cycle: @memplane/a → @memplane/b (dependencies) → @memplane/c (dependencies) → @memplane/a (peerDependencies)']);
    });

    it('makes no cycle of devDependencies', () => {
      expect(problemsOf([service({ devDependencies: { '@memplane/service-postgres': '^0.1.0' } }), postgres()])).toEqual([]);
    });

    it('fails on a dynamic import of a workspace package in src/, by string literal', () => {
      const files = { 'src/data-folder/open-store.ts': "export const open = async () => await import('@memplane/service-postgres');\n" };
      expect(problemsOf([service({ files }), postgres()])).toEqual([
        "package cycle: @memplane/service → @memplane/service-postgres (import('@memplane/service-postgres') in packages/service/src/data-folder/open-store.ts) → @memplane/service (dependencies)",
      ]);
    });

    it('fails on a dynamic import of a string constant, and of a subpath of the package', () => {
      const hidden = {
        'src/data-folder/data-folder-service.ts': [
          'export async function load() {',
          "  const specifier = '@memplane/service-postgres';",
          '  return (await import(specifier)) as unknown;',
          '}',
          '',
        ].join('\n'),
      };
      expect(problemsOf([service({ files: hidden }), postgres()])).toEqual([
        "package cycle: @memplane/service → @memplane/service-postgres (import('@memplane/service-postgres') in packages/service/src/data-folder/data-folder-service.ts) → @memplane/service (dependencies)",
      ]);
      const subpath = { 'src/providers.ts': "export const load = () => import('@memplane/service-postgres/provider');\n" };
      expect(problemsOf([service({ files: subpath }), postgres()])).toEqual([
        "package cycle: @memplane/service → @memplane/service-postgres (import('@memplane/service-postgres/provider') in packages/service/src/providers.ts) → @memplane/service (dependencies)",
      ]);
    });

    it('reads only src/, and skips tests there', () => {
      const files = {
        'src/store.test.ts': "await import('@memplane/service-postgres');\n",
        'src/store.spec.ts': "await import('@memplane/service-postgres');\n",
        'scripts/try.ts': "await import('@memplane/service-postgres');\n",
      };
      expect(problemsOf([service({ files }), postgres()])).toEqual([]);
    });
  });

  describe("@memplane/service's adapter dependencies", () => {
    it('fails on an adapter in dependencies, peerDependencies or optionalDependencies', () => {
      const markdown: FixturePackage = { folder: 'adapters/markdown', name: '@memplane/markdown' };
      const mem0: FixturePackage = { folder: 'adapters/mem0', name: '@memplane/mem0' };
      const problems = problemsOf([
        service({
          dependencies: { '@memplane/memory': '^0.1.0' },
          peerDependencies: { '@memplane/markdown': '^0.1.0' },
          optionalDependencies: { '@memplane/mem0': '^0.1.0' },
        }),
        memoryAdapter,
        markdown,
        mem0,
      ]);
      expect(problems).toEqual([
        expect.stringMatching(/^packages\/service \(@memplane\/service\): depends on the adapter @memplane\/memory in dependencies;/),
        expect.stringMatching(/: depends on the adapter @memplane\/markdown in peerDependencies;/),
        expect.stringMatching(/: depends on the adapter @memplane\/mem0 in optionalDependencies;/),
      ]);
    });

    it('accepts an adapter as a devDependency, and a non-adapter dependency', () => {
      const core: FixturePackage = { folder: 'packages/core', name: '@memplane/core' };
      expect(problemsOf([service({ dependencies: { '@memplane/core': '^0.1.0' }, devDependencies: { '@memplane/memory': '^0.1.0' } }), core, memoryAdapter])).toEqual([]);
    });
  });

  describe('ranking code under the contract and hosted adapters', () => {
    const rules: FixturePackage = { folder: 'packages/rules', name: '@memplane/rules' };
    const core = (more: Partial<FixturePackage> = {}): FixturePackage => ({ folder: 'packages/core', name: '@memplane/core', ...more });

    it('fails when the contract depends on the rules', () => {
      expect(problemsOf([core({ dependencies: { '@memplane/rules': '^0.1.0' } }), rules])).toEqual([
        'packages/core (@memplane/core): reaches @memplane/rules through @memplane/core → @memplane/rules; the contract and hosted adapters install no ranking code',
      ]);
    });

    it('fails on a hosted adapter that reaches the rules through another workspace package, and on a new adapter', () => {
      const helper: FixturePackage = { folder: 'packages/helper', name: '@memplane/helper', peerDependencies: { '@memplane/rules': '^0.1.0' } };
      const mem0: FixturePackage = { folder: 'adapters/mem0', name: '@memplane/mem0', dependencies: { '@memplane/core': '^0.1.0', '@memplane/helper': '^0.1.0' } };
      const newcomer: FixturePackage = { folder: 'adapters/newcomer', name: '@memplane/newcomer', optionalDependencies: { '@memplane/rules': '^0.1.0' } };
      expect(problemsOf([core(), rules, helper, mem0, newcomer])).toEqual([
        'adapters/mem0 (@memplane/mem0): reaches @memplane/rules through @memplane/mem0 → @memplane/helper → @memplane/rules; the contract and hosted adapters install no ranking code',
        'adapters/newcomer (@memplane/newcomer): reaches @memplane/rules through @memplane/newcomer → @memplane/rules; the contract and hosted adapters install no ranking code',
      ]);
    });

    it('accepts the local backends on the rules, and a hosted adapter with the rules as a devDependency', () => {
      const markdown: FixturePackage = { folder: 'adapters/markdown', name: '@memplane/markdown', dependencies: { '@memplane/rules': '^0.1.0' } };
      const memory: FixturePackage = { ...memoryAdapter, dependencies: { '@memplane/rules': '^0.1.0' } };
      const mem0: FixturePackage = { folder: 'adapters/mem0', name: '@memplane/mem0', devDependencies: { '@memplane/rules': '^0.1.0' } };
      expect(problemsOf([core(), rules, markdown, memory, mem0])).toEqual([]);
    });
  });

  describe('README sections for entry points', () => {
    const engine = (readme: string, more: Partial<FixturePackage> = {}): FixturePackage => ({
      folder: 'packages/engine',
      name: '@memplane/engine',
      subpaths: ['./sqlite', './postgres'],
      readme,
      ...more,
    });

    it('fails on a public package whose README names an entry point nowhere, or only in prose or code', () => {
      const readme = [
        '# @memplane/engine',
        '',
        'Import `@memplane/engine/sqlite` for the SQLite store.',
        '',
        '```ts',
        "import { createPostgresEngineStore } from '@memplane/engine/postgres';",
        '```',
        '',
      ].join('\n');
      expect(problemsOf([engine(readme)])).toEqual([
        'packages/engine (@memplane/engine): README.md has no section for the entry point @memplane/engine/sqlite (name it in a heading, a table row or a list item)',
        'packages/engine (@memplane/engine): README.md has no section for the entry point @memplane/engine/postgres (name it in a heading, a table row or a list item)',
      ]);
    });

    it('fails when the main entry has no section either', () => {
      expect(problemsOf([engine('# The engine\n\n- `@memplane/engine/sqlite`\n- `@memplane/engine/postgres`\n')])).toEqual([
        'packages/engine (@memplane/engine): README.md has no section for the entry point @memplane/engine (name it in a heading, a table row or a list item)',
      ]);
    });

    it('accepts a heading, a table row or a list item naming each entry point', () => {
      const readme = [
        '# @memplane/engine',
        '',
        '## `@memplane/engine/sqlite`',
        '',
        '| entry point | what |',
        '|---|---|',
        '| `@memplane/engine/postgres` | the Postgres store |',
        '',
      ].join('\n');
      expect(problemsOf([engine(readme)])).toEqual([]);
      expect(problemsOf([engine('# @memplane/engine\n\n- `@memplane/engine/sqlite`: SQLite\n- **`@memplane/engine/postgres`**: Postgres\n')])).toEqual([]);
    });

    it('does not take a longer name for the entry point', () => {
      const readme = '# @memplane/engine\n\n- `@memplane/engine/sqlite-vec`\n- `@memplane/engine/postgres/extra`\n';
      expect(problemsOf([engine(readme)])).toHaveLength(2);
      expect(namesSpecifier('`@memplane/service-postgres`', '@memplane/service')).toBe(false);
      expect(namesSpecifier('`@memplane/service/testing`', '@memplane/service')).toBe(false);
      expect(namesSpecifier('the service (`@memplane/service`).', '@memplane/service')).toBe(true);
    });

    it('does not ask a private package for sections', () => {
      expect(problemsOf([engine('# Engine template\n', { private: true })])).toEqual([]);
    });
  });

  it('npm run check-structure exits 1 and names every problem', () => {
    const root = fixtureRepository([service({ dependencies: { '@memplane/memory': '^0.1.0' } }), memoryAdapter]);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(repositoryRoot, 'scripts/check-package-structure.ts'), root], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Package structure problems:\n- packages\/service \(@memplane\/service\): depends on the adapter @memplane\/memory in dependencies;/);
  });
});

describe('dynamic import specifiers', () => {
  it('reads string literals, templates without substitutions and string constants, and leaves computed ones out', () => {
    const text = [
      "const a = '@memplane/a';",
      'let b = "@memplane/b";',
      "await import('@memplane/literal');",
      'await import(`@memplane/template`);',
      'await import(a);',
      'await import(b);',
      'await import(`@memplane/${a}`);',
      "const load = (name: string) => import(name);",
      "import { x } from '@memplane/static';",
    ].join('\n');
    expect(dynamicImportSpecifiers('file.ts', text)).toEqual(['@memplane/literal', '@memplane/template', '@memplane/a']);
  });
});

describe('this repository', () => {
  it('passes the structure check', () => {
    expect(checkRepositoryStructure(repositoryRoot).problems).toEqual([]);
  });
});
