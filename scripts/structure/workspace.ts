import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json the structure checks read. */
export interface Manifest {
  name: string;
  private?: boolean;
  license?: string;
  files?: string[];
  keywords?: string[];
  homepage?: string;
  bugs?: { url?: string } | string;
  repository?: { type?: string; url?: string; directory?: string } | string;
  sideEffects?: boolean;
  engines?: { node?: string };
  exports?: Record<string, unknown> | string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** One workspace package: its folder relative to the root (`packages/service`) and its manifest. */
export interface WorkspacePackage {
  folder: string;
  manifest: Manifest;
}

/**
 * Every workspace package of the repository at `root`, from the root manifest's `workspaces`
 * (a folder, or a folder ending in `/*` for each of its children holding a package.json).
 */
export function readWorkspacePackages(root: string): WorkspacePackage[] {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const folders = (rootManifest.workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
  return folders
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as Manifest }));
}

/** The packages held to the standard skeleton: the libraries, the adapters and the conformance suite (not internal tooling or examples). */
export function isLibraryFolder(folder: string): boolean {
  return folder.startsWith('packages/') || folder.startsWith('adapters/') || folder === 'conformance';
}

/** The dependency fields that make one package need another at run time (devDependencies do not). */
export const runtimeDependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;
