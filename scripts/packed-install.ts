/**
 * Helpers for the packed-install tests: pack the public workspace packages with `npm pack`, and
 * install the tarballs into fresh projects outside the repository, as a user's project would get
 * them from the registry. Installs prefer the local npm cache (`--prefer-offline`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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

/** Packs every public package into `destination`. Needs the packages built. */
export function packPublicPackages(destination: string): PackedPackage[] {
  mkdirSync(destination, { recursive: true });
  const folders = publicPackageFolders();
  const unbuilt = folders.filter((folder) => !existsSync(join(repositoryRoot, folder, 'dist')));
  if (unbuilt.length > 0) throw new Error(`Build first (npm run build): no dist in ${unbuilt.join(', ')}`);
  const packed = run('npm', ['pack', '--json', '--pack-destination', destination, ...folders.flatMap((folder) => ['-w', folder])], repositoryRoot);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const report = JSON.parse(packed.output.slice(packed.output.indexOf('['), packed.output.lastIndexOf(']') + 1)) as Array<{
    name: string;
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return report.map((entry) => {
    const folder = folders.find((candidate) => (JSON.parse(readFileSync(join(repositoryRoot, candidate, 'package.json'), 'utf8')) as { name: string }).name === entry.name) ?? '';
    return {
      name: entry.name,
      folder,
      tarball: join(destination, entry.filename),
      files: entry.files.map((file) => file.path),
      manifest: JSON.parse(readFileSync(join(repositoryRoot, folder, 'package.json'), 'utf8')) as PackedPackage['manifest'],
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
