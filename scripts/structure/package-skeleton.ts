import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest, WorkspacePackage } from './workspace';

/** Packages built on an ESM-only host SDK: a CJS build could not load it, so they ship ESM alone (say why in their README). */
const esmOnlyPackages = new Set(['packages/paperclip-plugin']);

/** The root LICENSE, or undefined when it is missing or not the Apache-2.0 text (which is a problem of its own). */
export function rootLicense(root: string): { text: string | undefined; problems: string[] } {
  const path = join(root, 'LICENSE');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const valid = text !== undefined && text.includes('Apache License') && text.includes('Version 2.0, January 2004');
  return { text, problems: valid ? [] : ['LICENSE at the root must hold the Apache-2.0 text'] };
}

/** What a public package needs before it can be published. */
function publishProblems(root: string, folder: string, manifest: Manifest, license: string | undefined): string[] {
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

/**
 * The standard skeleton of one package: README, CHANGELOG, src/index.ts, tsup and vitest
 * configs, and a package.json with ESM + CJS exports (types first), sideEffects false and the
 * Node engine; a public package must also be fit to publish (the root LICENSE, byte for byte,
 * listed in `files`; `repository` with the package's `directory`, `homepage`, `bugs`, `keywords`).
 */
export function skeletonProblems(root: string, { folder, manifest }: WorkspacePackage, license: string | undefined): string[] {
  const found: string[] = [];
  for (const file of ['README.md', 'CHANGELOG.md', 'src/index.ts', 'tsup.config.ts', 'vitest.config.ts', 'tsconfig.json']) {
    if (!existsSync(join(root, folder, file))) found.push(`missing ${file}`);
  }
  if (manifest.private !== true) found.push(...publishProblems(root, folder, manifest, license));
  if (manifest.sideEffects !== false) found.push('package.json needs "sideEffects": false');
  if (manifest.engines?.node !== '>=20.19') found.push('package.json needs "engines": { "node": ">=20.19" }');
  const exportsMap = typeof manifest.exports === 'object' ? manifest.exports : undefined;
  const main = exportsMap?.['.'] as Record<string, Record<string, string>> | undefined;
  if (main === undefined) return [...found, 'package.json needs an exports map with "."'];
  for (const condition of esmOnlyPackages.has(folder) ? ['import'] : ['import', 'require']) {
    const entry = main[condition];
    if (entry === undefined) found.push(`exports["."] needs "${condition}"`);
    else if (Object.keys(entry)[0] !== 'types') found.push(`exports["."].${condition} must list "types" first`);
  }
  if (exportsMap?.['./package.json'] === undefined) found.push('exports needs "./package.json"');
  return found;
}
