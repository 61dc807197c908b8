/**
 * Checks that every package has the standard skeleton: README, CHANGELOG, src/index.ts,
 * tsup and vitest configs, and a package.json with ESM + CJS exports (types first),
 * sideEffects false and the Node engine. A public package must also be fit to publish: the
 * Apache-2.0 LICENSE (the root file, byte for byte) listed in `files`, and `repository` (with
 * the package's `directory`), `homepage`, `bugs` and `keywords`. Exits 1 and names every gap.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
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
  exports?: Record<string, unknown>;
}

const root = join(import.meta.dirname, '..');
const packageFolders = ['packages', 'adapters']
  .flatMap((parent) => readdirSync(join(root, parent)).map((child) => join(parent, child)))
  .concat(['conformance'])
  .filter((folder) => existsSync(join(root, folder, 'package.json')));

const problems: string[] = [];
/** Packages built on an ESM-only host SDK: a CJS build could not load it, so they ship ESM alone (say why in their README). */
const esmOnlyPackages = new Set(['packages/paperclip-plugin']);
const licensePath = join(root, 'LICENSE');
const license = existsSync(licensePath) ? readFileSync(licensePath, 'utf8') : undefined;
if (license === undefined || !license.includes('Apache License') || !license.includes('Version 2.0, January 2004')) {
  problems.push('LICENSE at the root must hold the Apache-2.0 text');
}

/** What a public package needs before it can be published. */
function publishProblems(folder: string, manifest: Manifest): string[] {
  const found: string[] = [];
  if (manifest.license !== 'Apache-2.0') found.push('package.json needs "license": "Apache-2.0"');
  const packageLicense = join(root, folder, 'LICENSE');
  if (!existsSync(packageLicense)) found.push('missing LICENSE (copy the root LICENSE)');
  else if (readFileSync(packageLicense, 'utf8') !== license) found.push('LICENSE differs from the root LICENSE');
  if (manifest.files !== undefined && !manifest.files.includes('LICENSE')) found.push('"files" must list "LICENSE"');
  const repository = manifest.repository;
  if (typeof repository !== 'object' || typeof repository.url !== 'string' || repository.type !== 'git') {
    found.push('package.json needs "repository": { "type": "git", "url", "directory" }');
  } else if (repository.directory !== folder) {
    found.push(`"repository.directory" must be "${folder}"`);
  }
  if (typeof manifest.homepage !== 'string' || !manifest.homepage.startsWith('https://')) found.push('package.json needs an https "homepage"');
  const bugsUrl = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
  if (typeof bugsUrl !== 'string' || !bugsUrl.startsWith('https://')) found.push('package.json needs "bugs": { "url" }');
  if (!Array.isArray(manifest.keywords) || !manifest.keywords.includes('memplane')) found.push('package.json needs "keywords" including "memplane"');
  return found;
}

for (const folder of packageFolders) {
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as Manifest;
  const problem = (text: string) => problems.push(`${folder} (${manifest.name}): ${text}`);
  for (const file of ['README.md', 'CHANGELOG.md', 'src/index.ts', 'tsup.config.ts', 'vitest.config.ts', 'tsconfig.json']) {
    if (!existsSync(join(root, folder, file))) problem(`missing ${file}`);
  }
  if (manifest.private !== true) for (const text of publishProblems(folder, manifest)) problem(text);
  if (manifest.sideEffects !== false) problem('package.json needs "sideEffects": false');
  if (manifest.engines?.node !== '>=20.19') problem('package.json needs "engines": { "node": ">=20.19" }');
  const main = manifest.exports?.['.'] as Record<string, Record<string, string>> | undefined;
  if (main === undefined) {
    problem('package.json needs an exports map with "."');
    continue;
  }
  for (const condition of esmOnlyPackages.has(folder) ? ['import'] : ['import', 'require']) {
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
