/**
 * Fit to publish, checked from the tarballs: `npm pack` every public package, install the
 * tarballs into fresh projects outside the repository (os.tmpdir()) and use them as a user would.
 * - every tarball carries the Apache-2.0 LICENSE;
 * - every public package loads from ESM, from CommonJS and type-checks from TypeScript (nodenext);
 * - a Postgres deployment installs without better-sqlite3 (no native build);
 * - examples/ci-conformance, and the CI guide's files copied as written over an adapter the packed
 *   scaffolder wrote, run the suite green; so does a `--minimal` scaffold, with `npm test`.
 * Needs the packages built (`npm test` builds them first). Installs prefer the local npm cache.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationCodeBlocks, repositoryRoot } from './docs-code-blocks';
import { installProject, packPublicPackages, publicPackageFolders, run, withWorkspaceDependencies, type PackedPackage } from './packed-install';

const workDirectory = mkdtempSync(join(tmpdir(), 'memplane-packed-install-'));
let packages: PackedPackage[] = [];
const repositoryManifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const toolVersions = {
  typescript: repositoryManifest.devDependencies.typescript ?? '*',
  vitest: repositoryManifest.devDependencies.vitest ?? '*',
  '@types/node': repositoryManifest.devDependencies['@types/node'] ?? '*',
};
const nodenextTsconfig = {
  compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], strict: true, skipLibCheck: true, noEmit: true },
};

/** What appeared in or vanished from a package folder while packing: `folder/name` per change. */
const changedWhilePacking: string[] = [];

beforeAll(async () => {
  // Other projects' tests read these folders in parallel (the scaffolder reads its template/):
  // packing must not create or remove anything in them, even for a moment.
  const watchers = publicPackageFolders().map((folder) =>
    watch(join(repositoryRoot, folder), (event, name) => {
      if (event === 'rename' && name !== null) changedWhilePacking.push(`${folder}/${name}`);
    }),
  );
  try {
    packages = packPublicPackages(join(workDirectory, 'tarballs'));
    // Let the watchers deliver what the kernel queued while npm ran.
    for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    for (const watcher of watchers) watcher.close();
  }
}, 300_000);

afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

/** The subpaths of a package's exports map that code can import (not ./package.json). */
function entryPoints(entry: PackedPackage, condition: 'import' | 'require'): string[] {
  const exportsMap = entry.manifest.exports ?? {};
  // A map of conditions alone is the map of ".".
  const subpaths = Object.keys(exportsMap).some((key) => key.startsWith('.')) ? exportsMap : { '.': exportsMap };
  return Object.entries(subpaths)
    .filter(([subpath, target]) => subpath !== './package.json' && typeof target === 'object' && target !== null && condition in target)
    .map(([subpath]) => (subpath === '.' ? entry.name : `${entry.name}/${subpath.slice(2)}`));
}

describe('packed packages', () => {
  it('every tarball ships the Apache-2.0 LICENSE, the README and the built code', () => {
    const rootLicense = readFileSync(join(repositoryRoot, 'LICENSE'), 'utf8');
    expect(rootLicense).toContain('Apache License');
    expect(packages.length).toBeGreaterThanOrEqual(12);
    for (const entry of packages) {
      expect(entry.files, entry.name).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
      expect(entry.files.some((file) => file.startsWith('dist/')), entry.name).toBe(true);
    }
  });

  it('packing writes nothing into the working tree, and the scaffolder still ships its template', () => {
    // Files the tests create themselves (the scaffolder tests' .tmp/) are not packing.
    const shipped = new Set(packages.flatMap((entry) => entry.files.map((file) => `${entry.folder}/${file.split('/')[0]}`)));
    expect(changedWhilePacking.filter((path) => shipped.has(path))).toEqual([]);
    const scaffolder = packages.find((entry) => entry.name === 'create-memplane-adapter');
    expect(scaffolder?.files).toEqual(
      expect.arrayContaining([
        'template/package.json',
        'template/src/index.ts',
        'template/_gitignore',
        'template/.github/workflows/conformance.yml',
        'template-minimal/package.json',
        'template-minimal/src/example-adapter.ts',
        'template-minimal/_gitignore',
        'template-minimal/.github/workflows/conformance.yml',
        'dist/cli.js',
      ]),
    );
    expect(existsSync(join(repositoryRoot, scaffolder?.folder ?? '', 'template'))).toBe(false);
  });

  it('a Postgres deployment installs without better-sqlite3 and says what to install for SQLite', () => {
    const project = join(workDirectory, 'postgres-only');
    const chosen = withWorkspaceDependencies(['@memplane/service'], packages);
    const servicePeers = packages.find((entry) => entry.name === '@memplane/service')?.manifest.peerDependencies ?? {};
    // Install scripts allowed, as npm's default: better-sqlite3 would compile here if it came along.
    // pg and pg-boss as a Postgres user installs them (the service's optional peers); @types/node as
    // a TypeScript user has it; nothing for pg's types: what its declarations need comes with the service.
    const install = installProject(
      project,
      {
        name: 'postgres-only',
        private: true,
        type: 'module',
        dependencies: { pg: servicePeers.pg ?? '*', 'pg-boss': servicePeers['pg-boss'] ?? '*' },
        devDependencies: { '@types/node': toolVersions['@types/node'] },
      },
      chosen,
      { scripts: true },
    );
    expect(install.status, install.output).toBe(0);
    expect(existsSync(join(project, 'node_modules/better-sqlite3'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/@memplane/markdown'))).toBe(false);
    expect(install.output).not.toMatch(/better-sqlite3|node-gyp|prebuild-install/);

    writeFileSync(
      join(project, 'check.mjs'),
      [
        "import { createPostgresMemoryServiceStore } from '@memplane/service/postgres';",
        "import { createPgBossJobQueue } from '@memplane/service/pg-boss';",
        "import { MemoryMissingPackageError } from '@memplane/service';",
        "import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';",
        "console.log('postgres store:', typeof createPostgresMemoryServiceStore, typeof createPgBossJobQueue);",
        'try { createSqliteMemoryServiceStore(); console.log("sqlite opened"); }',
        "catch (error) { console.log('sqlite:', MemoryMissingPackageError.isInstance(error), error.packageName, error.code); }",
      ].join('\n'),
    );
    const esm = run(process.execPath, ['check.mjs'], project);
    expect(esm.output).toContain('postgres store: function function');
    expect(esm.output).toContain('sqlite: true better-sqlite3 MEMORY_CONFIGURATION');
    const cjs = run(process.execPath, ['-e', "const s = require('@memplane/service/sqlite'); try { s.createSqliteMemoryServiceStore() } catch (e) { console.log(e.packageName) }"], project);
    expect(cjs.output.trim()).toBe('better-sqlite3');

    // The type declarations expose pg's types: they resolve with no @types/pg of the user's
    // own and with skipLibCheck off, as a strict project compiles (TS7016 on 'pg' otherwise).
    writeFileSync(
      join(project, 'types.ts'),
      [
        "import { createPostgresMemoryServiceStore } from '@memplane/service/postgres';",
        "import { createPgBossJobQueue } from '@memplane/service/pg-boss';",
        'export const store = createPostgresMemoryServiceStore;',
        'export const queue = createPgBossJobQueue;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...nodenextTsconfig.compilerOptions, skipLibCheck: false }, files: ['types.ts'] }, null, 2),
    );
    const tsc = run(process.execPath, [join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(tsc.status, tsc.output).toBe(0);
  }, 300_000);

  it('every public package loads from ESM and CommonJS and type-checks from TypeScript', () => {
    const project = join(workDirectory, 'every-package');
    // No install scripts: better-sqlite3 (under @memplane/markdown) loads its native part only
    // when a database opens, which importing never does; the Postgres test above runs them.
    // Optional peers too (an entry point such as @memplane/agentcore/setup needs its own), as a
    // user of every entry point installs them.
    const optionalPeers = Object.fromEntries(
      packages.flatMap((entry) => Object.entries(entry.manifest.peerDependencies ?? {})).filter(([name]) => !name.startsWith('@memplane/')),
    );
    const install = installProject(
      project,
      { name: 'every-package', private: true, type: 'module', devDependencies: { ...optionalPeers, ...toolVersions } },
      packages,
      { scripts: false },
    );
    expect(install.status, install.output).toBe(0);
    const importable = packages.flatMap((entry) => entryPoints(entry, 'import'));
    const requirable = packages.flatMap((entry) => entryPoints(entry, 'require'));
    expect(importable.length).toBeGreaterThanOrEqual(packages.length);

    writeFileSync(
      join(project, 'esm.mjs'),
      `for (const name of ${JSON.stringify(importable)}) { const loaded = await import(name); console.log(name, Object.keys(loaded).length > 0 ? 'ok' : 'empty'); }\n`,
    );
    writeFileSync(
      join(project, 'cjs.cjs'),
      `for (const name of ${JSON.stringify(requirable)}) { const loaded = require(name); console.log(name, Object.keys(loaded).length > 0 ? 'ok' : 'empty'); }\n`,
    );
    const esm = run(process.execPath, ['esm.mjs'], project);
    expect(esm.status, esm.output).toBe(0);
    expect(esm.output.trim().split('\n').filter((line) => !line.endsWith(' ok'))).toEqual([]);
    const cjs = run(process.execPath, ['cjs.cjs'], project);
    expect(cjs.status, cjs.output).toBe(0);
    expect(cjs.output.trim().split('\n').filter((line) => !line.endsWith(' ok'))).toEqual([]);
    // vitest cannot be required: the CommonJS main entry of the suite loads without it, and its
    // vitest entry throws one typed error that points to ESM and the runner.
    const vitestEntry = run(
      process.execPath,
      ['-e', "const c = require('@memplane/conformance'); try { c.describeMemoryAdapterConformance({}) } catch (e) { console.log(c.VitestEntryFromCommonJsError.is(e), e.code) }"],
      project,
    );
    expect(vitestEntry.output.trim()).toBe('true MEMORY_CONFIGURATION');

    // Types from both module systems: an ESM file and a CommonJS (.cts) file under nodenext.
    const namespaces = (names: string[]) => names.map((name, index) => `import * as entry${index} from '${name}';`).join('\n');
    const uses = (names: string[]) => `export const loaded = [${names.map((_, index) => `entry${index}`).join(', ')}];\n`;
    writeFileSync(join(project, 'types.ts'), `${namespaces(importable)}\n${uses(importable)}`);
    writeFileSync(join(project, 'types-cjs.cts'), `${namespaces(requirable)}\n${uses(requirable)}`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ ...nodenextTsconfig, files: ['types.ts', 'types-cjs.cts'] }, null, 2));
    const tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], project);
    expect(tsc.status, tsc.output).toBe(0);
  }, 600_000);
});

describe('conformance in a user project', () => {
  let example = '';
  let scaffolderBin = '';

  beforeAll(() => {
    example = join(workDirectory, 'ci-conformance');
    const source = join(repositoryRoot, 'examples/ci-conformance');
    cpSync(source, example, { recursive: true, filter: (path) => !/node_modules|\.turbo|conformance-(report\.json|junit\.xml)/.test(path) });
    const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as Record<string, unknown>;
    const install = installProject(example, manifest, withWorkspaceDependencies(memplaneDependencies(manifest), packages), { scripts: true });
    if (install.status !== 0) throw new Error(`npm install failed in the example:\n${install.output}`);
    // The scaffolder as \`npm create memplane-adapter\` runs it: from its tarball, with the templates it ships.
    const scaffolder = join(workDirectory, 'scaffolder');
    const scaffolderInstall = installProject(
      scaffolder,
      { name: 'scaffolder', private: true, type: 'module' },
      withWorkspaceDependencies(['create-memplane-adapter'], packages),
      { scripts: false },
    );
    if (scaffolderInstall.status !== 0) throw new Error(`npm install failed for the scaffolder:\n${scaffolderInstall.output}`);
    scaffolderBin = join(scaffolder, 'node_modules/create-memplane-adapter/dist/cli.js');
  }, 300_000);

  /** The @memplane packages a manifest names, in any kind of dependency. */
  function memplaneDependencies(manifest: Record<string, unknown>): string[] {
    const named = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) => Object.keys((manifest[field] as object | undefined) ?? {}));
    return [...new Set(named)].filter((name) => name.startsWith('@memplane/'));
  }

  /** Scaffolds with the packed scaffolder's bin, then installs the new adapter, its @memplane packages from the tarballs. */
  function scaffoldAndInstall(name: string, directory: string, flags: string[]): void {
    const scaffolded = run(process.execPath, [scaffolderBin, name, '--directory', directory, '--no-interactive', ...flags], workDirectory);
    expect(scaffolded.status, scaffolded.output).toBe(0);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Record<string, unknown>;
    const install = installProject(directory, manifest, withWorkspaceDependencies(memplaneDependencies(manifest), packages), { scripts: true });
    expect(install.status, install.output).toBe(0);
  }

  function expectCliGreen(project: string): void {
    const cli = run(
      process.execPath,
      [join(project, 'node_modules/@memplane/conformance/dist/cli/memplane-conformance.js'), './conformance-entry.ts', '--json', 'conformance-report.json', '--junit', 'conformance-junit.xml'],
      project,
    );
    expect(cli.status, cli.output).toBe(0);
    const report = JSON.parse(readFileSync(join(project, 'conformance-report.json'), 'utf8')) as { passed: number; failed: number };
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThan(50);
  }

  function expectGreenRun(project: string, testFiles: string[] = []): void {
    const types = run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'], project);
    expect(types.status, types.output).toBe(0);
    const suite = run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', ...testFiles], project);
    expect(suite.status, suite.output).toBe(0);
    expect(suite.output).toMatch(/Tests\s+\d+ passed/);
    expectCliGreen(project);
  }

  it('examples/ci-conformance installs from the tarballs outside the repository and runs green', () => {
    expect(JSON.stringify(JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')))).not.toContain('@memplane/tsconfig');
    expectGreenRun(example);
  }, 300_000);

  it("the CI guide's files, copied as written over an adapter the packed scaffolder wrote, run green", () => {
    const guide = join(workDirectory, 'ci-guide');
    scaffoldAndInstall('acme-memory', guide, []);
    const blocks = documentationCodeBlocks().filter((block) => block.document === 'docs/conformance-in-ci.md');
    const files = blocks.flatMap((block) => (block.fileName === undefined ? [] : [block.fileName]));
    // The guide's files are the scaffold's: writing them replaces the scaffold's own.
    expect(files.sort()).toEqual(['conformance-entry.ts', 'src/acme-memory-adapter.conformance.test.ts']);
    for (const file of files) expect(existsSync(join(guide, file)), file).toBe(true);
    for (const block of blocks) if (block.fileName !== undefined) writeFileSync(join(guide, block.fileName), block.code);
    expect(readFileSync(join(guide, 'conformance-entry.ts'), 'utf8')).toMatch(/export function createPeerAdapter/);
    expectGreenRun(guide, ['src/acme-memory-adapter.conformance.test.ts']);
  }, 300_000);

  it('a --minimal scaffold installs from the tarballs and passes npm test out of the box', () => {
    const minimal = join(workDirectory, 'minimal-adapter');
    scaffoldAndInstall('acme-local', minimal, ['--minimal']);
    const types = run('npm', ['run', 'type-check'], minimal);
    expect(types.status, types.output).toBe(0);
    const tests = run('npm', ['test'], minimal);
    expect(tests.status, tests.output).toBe(0);
    expect(tests.output).toMatch(/Tests\s+\d+ passed/);
    expect(tests.output).not.toMatch(/\d+ failed/);
  }, 300_000);
});
