/**
 * Checks that every package has the standard skeleton: README, CHANGELOG, src/index.ts,
 * tsup and vitest configs, and a package.json with ESM + CJS exports (types first),
 * sideEffects false and the Node engine. Exits 1 and names every gap.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  name: string;
  private?: boolean;
  sideEffects?: boolean;
  engines?: { node?: string };
  exports?: Record<string, unknown>;
}

const root = join(import.meta.dirname, '..');
const packageFolders = ['packages', 'adapters']
  .flatMap((parent) => readdirSync(join(root, parent)).map((child) => join(parent, child)))
  .concat(['conformance'])
  .filter((folder) => existsSync(join(root, folder, 'package.json')));

const problems: string[] = [];
for (const folder of packageFolders) {
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as Manifest;
  const problem = (text: string) => problems.push(`${folder} (${manifest.name}): ${text}`);
  for (const file of ['README.md', 'CHANGELOG.md', 'src/index.ts', 'tsup.config.ts', 'vitest.config.ts', 'tsconfig.json']) {
    if (!existsSync(join(root, folder, file))) problem(`missing ${file}`);
  }
  if (manifest.sideEffects !== false) problem('package.json needs "sideEffects": false');
  if (manifest.engines?.node !== '>=20.19') problem('package.json needs "engines": { "node": ">=20.19" }');
  const main = manifest.exports?.['.'] as Record<string, Record<string, string>> | undefined;
  if (main === undefined) {
    problem('package.json needs an exports map with "."');
    continue;
  }
  for (const condition of ['import', 'require']) {
    const entry = main[condition];
    if (entry === undefined) problem(`exports["."] needs "${condition}"`);
    else if (Object.keys(entry)[0] !== 'types') problem(`exports["."].${condition} must list "types" first`);
  }
  if (manifest.exports?.['./package.json'] === undefined) problem('exports needs "./package.json"');
}

if (problems.length > 0) {
  process.stderr.write(`Package structure problems:\n${problems.map((text) => `- ${text}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Package structure: ${packageFolders.length} packages follow the standard skeleton.\n`);
