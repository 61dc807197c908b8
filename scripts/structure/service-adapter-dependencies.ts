import { runtimeDependencyFields, type WorkspacePackage } from './workspace';

/** The package that must depend on no adapter: providers come to it as descriptions, loaded by name. */
export const servicePackageName = '@memplane/service';

/**
 * The adapter packages (any workspace package under `adapters/`) that `@memplane/service`
 * names in `dependencies`, `peerDependencies` or `optionalDependencies`. A devDependency is
 * fine: tests may bind a real adapter.
 */
export function serviceAdapterDependencyProblems(packages: WorkspacePackage[]): string[] {
  const service = packages.find((entry) => entry.manifest.name === servicePackageName);
  if (service === undefined) return [];
  const adapters = new Set(packages.filter((entry) => entry.folder.startsWith('adapters/')).map((entry) => entry.manifest.name));
  return runtimeDependencyFields.flatMap((field) =>
    Object.keys(service.manifest[field] ?? {})
      .filter((dependency) => adapters.has(dependency))
      .map((dependency) => `${service.folder} (${servicePackageName}): depends on the adapter ${dependency} in ${field}; the service loads provider descriptions and depends on no adapter (a devDependency for tests is fine)`),
  );
}
