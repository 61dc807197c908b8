import { runtimeDependencyFields, type WorkspacePackage } from './workspace';

/** The package that holds memplane's ranking code: the analyser, its stemmer, BM25 and the classifier. */
export const rulesPackageName = '@memplane/rules';

/**
 * The adapters that rank on this machine and so may use the rules. Every other adapter reaches a
 * hosted service that ranks for it; a new adapter is held ranking-free until it is named here.
 */
export const localBackendAdapters: ReadonlySet<string> = new Set(['@memplane/markdown', '@memplane/memory']);

/**
 * The packages that reach `@memplane/rules` through runtime dependencies (directly or through other
 * workspace packages) but must not: the contract `@memplane/core`, and every adapter under
 * `adapters/` that is not a local backend, so installing a hosted adapter installs no stemmer.
 */
export function rankingFreeProblems(packages: WorkspacePackage[]): string[] {
  const byName = new Map(packages.map((entry) => [entry.manifest.name, entry]));
  const mustStayFree = packages.filter(
    (entry) => entry.manifest.name === '@memplane/core' || (entry.folder.startsWith('adapters/') && !localBackendAdapters.has(entry.manifest.name)),
  );
  return mustStayFree.flatMap((entry) => {
    const path = pathToRules(entry.manifest.name, byName);
    return path === undefined ? [] : [`${entry.folder} (${entry.manifest.name}): reaches ${rulesPackageName} through ${path.join(' → ')}; the contract and hosted adapters install no ranking code`];
  });
}

/** The chain of runtime dependencies from `start` to the rules package, breadth first, or undefined. */
function pathToRules(start: string, byName: ReadonlyMap<string, WorkspacePackage>): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift() as string;
    const manifest = byName.get(name)?.manifest;
    for (const field of runtimeDependencyFields) {
      for (const dependency of Object.keys(manifest?.[field] ?? {})) {
        if (seen.has(dependency)) continue;
        seen.add(dependency);
        previous.set(dependency, name);
        if (dependency === rulesPackageName) {
          const path = [dependency];
          for (let at = name; at !== start; at = previous.get(at) as string) path.unshift(at);
          return [start, ...path];
        }
        if (byName.has(dependency)) queue.push(dependency);
      }
    }
  }
  return undefined;
}
