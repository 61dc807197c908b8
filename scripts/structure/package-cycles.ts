import { dynamicImportsUnder } from './dynamic-imports';
import { runtimeDependencyFields, type WorkspacePackage } from './workspace';

/** One package needing another: through a dependency field, or a dynamic import in its `src/`. */
export interface PackageEdge {
  from: string;
  to: string;
  /** How, in words: `dependencies`, `import('@memplane/x') in packages/y/src/z.ts`. */
  via: string;
}

/** The workspace package a module specifier names (`@memplane/markdown/provider` names `@memplane/markdown`), if any. */
function packageOf(specifier: string, names: string[]): string | undefined {
  return names.find((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/**
 * The edges between workspace packages: `dependencies`, `peerDependencies` and
 * `optionalDependencies` (not `devDependencies`: they are not installed with the package), and
 * each dynamic `import()` of a known specifier in the package's `src/` outside tests. A
 * package naming itself is no edge.
 */
export function packageEdges(root: string, packages: WorkspacePackage[]): PackageEdge[] {
  const names = packages.map((entry) => entry.manifest.name);
  const edges: PackageEdge[] = [];
  for (const { folder, manifest } of packages) {
    for (const field of runtimeDependencyFields) {
      for (const dependency of Object.keys(manifest[field] ?? {})) {
        if (dependency !== manifest.name && names.includes(dependency)) edges.push({ from: manifest.name, to: dependency, via: field });
      }
    }
    for (const { specifier, file } of dynamicImportsUnder(root, `${folder}/src`)) {
      const target = packageOf(specifier, names);
      if (target !== undefined && target !== manifest.name) edges.push({ from: manifest.name, to: target, via: `import('${specifier}') in ${file}` });
    }
  }
  return edges;
}

/**
 * The package cycles: for each package (by name) on a cycle and not named in a cycle already
 * reported, a shortest cycle through it, each step saying why, such as
 * `package cycle: @a → @b (dependencies) → @a (import('@a') in packages/b/src/load.ts)`.
 */
export function packageCycleProblems(edges: PackageEdge[]): string[] {
  const next = new Map<string, PackageEdge[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  const problems: string[] = [];
  const reported = new Set<string>();
  for (const start of [...new Set(edges.map((edge) => edge.from))].sort()) {
    if (reported.has(start)) continue;
    const cycle = shortestCycle(start, next);
    if (cycle === undefined) continue;
    for (const edge of cycle) reported.add(edge.from);
    problems.push(`package cycle: ${start}${cycle.map((edge) => ` → ${edge.to} (${edge.via})`).join('')}`);
  }
  return problems;
}

/** A shortest path of edges from `start` back to `start` (breadth first), or undefined. */
function shortestCycle(start: string, next: Map<string, PackageEdge[]>): PackageEdge[] | undefined {
  const cameBy = new Map<string, PackageEdge>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const edge of next.get(node) ?? []) {
      if (edge.to === start) {
        const path = [edge];
        for (let step = cameBy.get(node); step !== undefined; step = cameBy.get(step.from)) path.unshift(step);
        return path;
      }
      if (!cameBy.has(edge.to)) {
        cameBy.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  return undefined;
}
