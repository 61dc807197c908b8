import { packageCycleProblems, packageEdges } from './package-cycles';
import { rootLicense, skeletonProblems } from './package-skeleton';
import { rankingFreeProblems } from './ranking-free-packages';
import { readmeEntryPointProblems } from './readme-entry-points';
import { serviceAdapterDependencyProblems } from './service-adapter-dependencies';
import { isLibraryFolder, readWorkspacePackages } from './workspace';

/** What {@link checkRepositoryStructure} found. */
export interface StructureReport {
  /** How many packages were held to the skeleton (the libraries, adapters and conformance suite). */
  packages: number;
  /** Every problem, one sentence each, naming the package; empty when the repository passes. */
  problems: string[];
}

/**
 * Checks the repository at `root`: every library package has the standard skeleton and, when
 * public, is fit to publish and has a README section for each entry point; no package cycle
 * among the workspace packages (dependency fields and dynamic imports in `src/`); and
 * `@memplane/service` depends on no adapter; and neither the contract nor a hosted adapter reaches the
 * ranking code of `@memplane/rules`.
 */
export function checkRepositoryStructure(root: string): StructureReport {
  const workspace = readWorkspacePackages(root);
  const libraries = workspace.filter((entry) => isLibraryFolder(entry.folder));
  const license = rootLicense(root);
  const problems = [...license.problems];
  for (const entry of libraries) {
    const found = [...skeletonProblems(root, entry, license.text), ...readmeEntryPointProblems(root, entry)];
    problems.push(...found.map((text) => `${entry.folder} (${entry.manifest.name}): ${text}`));
  }
  problems.push(...packageCycleProblems(packageEdges(root, workspace)));
  problems.push(...serviceAdapterDependencyProblems(workspace));
  problems.push(...rankingFreeProblems(workspace));
  return { packages: libraries.length, problems };
}
