/**
 * Helpers for the packed-install tests: pack the public workspace packages with `npm pack`, and
 * install the tarballs into fresh projects outside the repository, as a user's project would get
 * them from the registry. Installs prefer the local npm cache (`--prefer-offline`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './docs-code-blocks';

/** A public workspace package and its tarball. */
export interface PackedPackage {
  name: string;
  folder: string;
  tarball: string;
  /** The paths inside the tarball. */
  files: string[];
  manifest: {
    exports?: Record<string, unknown>;
    bin?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

/** The result of a command. */
export interface CommandResult {
  status: number | null;
  output: string;
}

/** The environment of a child: none of npm's or vitest's own variables leak into it. */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|VITEST|NODE_OPTIONS$|TEST$)/i.test(key)) environment[key] = value;
  }
  return { ...environment, NO_COLOR: '1', MEM0_TELEMETRY: 'false', TURBO_TELEMETRY_DISABLED: '1', ...extra };
}

/** Runs a command to its end and returns its exit status and combined output. */
export function run(command: string, args: string[], cwd: string, timeoutMs = 240_000): CommandResult {
  const result = spawnSync(command, args, { cwd, env: cleanEnvironment(), encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error === undefined ? '' : String(result.error)}` };
}

/** The public (not private) packages of the workspaces that ship code. */
export function publicPackageFolders(): string[] {
  return ['packages', 'adapters']
    .flatMap((parent) => readdirSync(join(repositoryRoot, parent)).map((child) => join(parent, child)))
    .concat(['conformance'])
    .filter((folder) => existsSync(join(repositoryRoot, folder, 'package.json')))
    .filter((folder) => (JSON.parse(readFileSync(join(repositoryRoot, folder, 'package.json'), 'utf8')) as { private?: boolean }).private !== true)
    .sort();
}

/** The npm scripts that run while a package is packed and may write into its folder. */
const packLifecycleScripts = ['prepack', 'prepare', 'postpack'];

/** The manifest of the package in `folder` (relative to the repository root). */
function readManifest(folder: string): PackedPackage['manifest'] & { name: string; scripts?: Record<string, string> } {
  return JSON.parse(readFileSync(join(repositoryRoot, folder, 'package.json'), 'utf8')) as PackedPackage['manifest'] & {
    name: string;
    scripts?: Record<string, string>;
  };
}

/** Parses the JSON array `npm pack --json` prints (script output may surround it). */
function parsePackReport(output: string): Array<{ name: string; filename: string; files: Array<{ path: string }> }> {
  return JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
}

/**
 * Packs a package whose pack scripts write into its folder (create-memplane-adapter's prepack
 * fills `template/`, its postpack removes it) from a copy, so the working tree never changes
 * while the tests of other projects, run in parallel, read that folder. The copy sits at the
 * same place in a mirror of the repository whose other top-level folders are links, so a
 * script that reads a sibling (the adapter template) finds it. No package.json or node_modules
 * at the mirror's root: npm must not take the copy for a workspace of the repository.
 */
function packFromCopy(folder: string, destination: string, staging: string): CommandResult {
  const [topLevel] = folder.split('/');
  for (const entry of readdirSync(repositoryRoot, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === topLevel || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    symlinkSync(join(repositoryRoot, entry.name), join(staging, entry.name), 'dir');
  }
  const copy = join(staging, folder);
  cpSync(join(repositoryRoot, folder), copy, { recursive: true, filter: (path) => !/(^|\/)(node_modules|\.turbo|\.tmp|coverage)$/.test(path) });
  return run('npm', ['pack', '--json', '--pack-destination', destination], copy);
}

/**
 * Packs every public package into `destination`. Needs the packages built. Packing never
 * writes into the repository: a package with pack scripts is packed from a copy.
 */
export function packPublicPackages(destination: string): PackedPackage[] {
  mkdirSync(destination, { recursive: true });
  const folders = publicPackageFolders();
  const unbuilt = folders.filter((folder) => !existsSync(join(repositoryRoot, folder, 'dist')));
  if (unbuilt.length > 0) throw new Error(`Build first (npm run build): no dist in ${unbuilt.join(', ')}`);
  const withScripts = folders.filter((folder) => packLifecycleScripts.some((script) => readManifest(folder).scripts?.[script] !== undefined));
  const plain = folders.filter((folder) => !withScripts.includes(folder));
  const packed = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...plain.flatMap((folder) => ['-w', folder])], repositoryRoot);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const report = parsePackReport(packed.output);
  for (const folder of withScripts) {
    const staging = mkdtempSync(join(tmpdir(), 'memplane-pack-'));
    try {
      const copied = packFromCopy(folder, destination, staging);
      if (copied.status !== 0) throw new Error(`npm pack failed for ${folder}:\n${copied.output}`);
      report.push(...parsePackReport(copied.output));
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return report.map((entry) => {
    const folder = folders.find((candidate) => readManifest(candidate).name === entry.name) ?? '';
    return {
      name: entry.name,
      folder,
      tarball: join(destination, entry.filename),
      files: entry.files.map((file) => file.path),
      manifest: readManifest(folder),
    };
  });
}

/** The workspace packages `names` need, themselves included, transitively. */
export function withWorkspaceDependencies(names: string[], packages: PackedPackage[]): PackedPackage[] {
  const wanted = new Set<string>();
  const visit = (name: string) => {
    const found = packages.find((candidate) => candidate.name === name);
    if (found === undefined || wanted.has(name)) return;
    wanted.add(name);
    for (const dependency of Object.keys(found.manifest.dependencies ?? {})) visit(dependency);
  };
  for (const name of names) visit(name);
  return packages.filter((candidate) => wanted.has(candidate.name));
}

/**
 * Writes `package.json` in `directory` with `manifest`, the given packages as `file:` tarball
 * dependencies, and installs. `scripts` true lets install scripts run, as a default npm does.
 */
export function installProject(
  directory: string,
  manifest: Record<string, unknown>,
  packages: PackedPackage[],
  options: { scripts: boolean },
): CommandResult {
  mkdirSync(directory, { recursive: true });
  const dependencies = { ...((manifest.dependencies as Record<string, string> | undefined) ?? {}) };
  const devDependencies = { ...((manifest.devDependencies as Record<string, string> | undefined) ?? {}) };
  for (const entry of packages) {
    delete devDependencies[entry.name];
    dependencies[entry.name] = `file:${entry.tarball}`;
  }
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ ...manifest, dependencies, devDependencies }, null, 2)}\n`);
  return run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-update-notifier', `--ignore-scripts=${options.scripts ? 'false' : 'true'}`],
    directory,
  );
}

/**
 * The packages of the first `npm install` line under a README's `## Install` heading, as a user
 * copies it (`ai@6` is `ai`).
 */
export function readmeInstallLine(readme: string): string[] {
  const install = readme.split(/^## /m).find((section) => section.startsWith('Install'));
  const line = install?.split('\n').find((candidate) => candidate.startsWith('npm install '));
  if (line === undefined) throw new TypeError('the README has no npm install line under ## Install');
  return line
    .replace(/#.*$/, '')
    .trim()
    .split(/\s+/)
    .slice(2)
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/(?<=.)@[^/]*$/, ''));
}

/** The version of a registry package the repository itself installed, so a project installs it from the npm cache. */
export function repositoryVersionOf(name: string): string {
  return (JSON.parse(readFileSync(join(repositoryRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}
