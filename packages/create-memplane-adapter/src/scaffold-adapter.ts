import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MemoryValidationError, parseInput } from '@memplane/core';
import { z } from 'zod';
import { findTemplateDirectory, type TemplateVariant } from './find-template-directory';
import {
  defaultPackageName,
  packageNameSchema,
  providerIdSchema,
  toProviderNames,
  type ProviderNames,
} from './provider-names';
import { renameTemplatePath, replaceTokens, type TokenReplacements } from './replace-tokens';
import { transformPackageManifest } from './transform-package-manifest';

/** Options of {@link scaffoldAdapter}. */
export interface ScaffoldAdapterOptions {
  /** The provider id, kebab-case, such as `acme-memory`. It replaces the template's `example`. */
  name: string;
  /**
   * Where to write the adapter, relative to the working directory or absolute.
   * Default: the package name without its scope, such as `memplane-adapter-acme-memory`.
   */
  directory?: string;
  /** The npm package name. Default `memplane-adapter-<name>`. */
  packageName?: string;
  /** Writes into a directory that is not empty, overwriting files of the same name. Default false. */
  force?: boolean;
  /**
   * Writes the minimal scaffold for a local adapter: one adapter file, its conformance test,
   * the CI workflow, and the package.json, tsconfig and vitest config that run them.
   * Default false: the full adapter package for a hosted provider.
   */
  minimal?: boolean;
  /** The template to copy. Default: the template bundled with this package (the minimal one with `minimal`). */
  templateDirectory?: string;
}

/** What {@link scaffoldAdapter} wrote. */
export interface ScaffoldAdapterResult {
  /** The absolute path of the new adapter. */
  directory: string;
  /** Its package name. */
  packageName: string;
  /** The spellings of the provider id that replaced the template's tokens. */
  names: ProviderNames;
  /** Every file written, relative to `directory`, with `/` separators, sorted. */
  files: string[];
}

const optionsSchema = z.strictObject({
  name: providerIdSchema,
  directory: z.string().min(1, 'must not be empty').optional(),
  packageName: packageNameSchema.optional(),
  force: z.boolean().optional(),
  minimal: z.boolean().optional(),
  templateDirectory: z.string().min(1, 'must not be empty').optional(),
});

/** Folders and files of the template that are never copied: build output, installs, secrets and history. */
const skippedNames = new Set(['node_modules', 'dist', '.turbo', '.tmp', 'coverage', '.env', '.DS_Store']);
const templateOnlyBlock = /<!-- template-only:start -->[\s\S]*?<!-- template-only:end -->\n?/g;

function listTemplateFiles(root: string, relative = ''): string[] {
  return readdirSync(join(root, relative), { withFileTypes: true })
    .filter((entry) => !skippedNames.has(entry.name) && !entry.name.endsWith('.tsbuildinfo'))
    .filter((entry) => !(relative === '' && entry.name === 'CHANGELOG.md'))
    .flatMap((entry) => {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) return listTemplateFiles(root, path);
      return entry.isFile() ? [path] : [];
    });
}

function assertWritableTarget(directory: string, force: boolean): void {
  if (!existsSync(directory)) return;
  const problem = !statSync(directory).isDirectory()
    ? 'is a file, not a directory'
    : readdirSync(directory).length > 0 && !force
    ? `is not empty (${directory}); pass force to write into it anyway`
    : undefined;
  if (problem !== undefined) {
    throw new MemoryValidationError({ target: 'scaffold options', issues: [{ path: 'directory', message: problem }] });
  }
}

function renderFile(content: Buffer, relativePath: string, replacements: TokenReplacements, variant: TemplateVariant): Buffer {
  // Binary files (images, fonts) are copied byte for byte.
  if (content.includes(0)) return content;
  let text = replaceTokens(content.toString('utf8'), replacements).replace(templateOnlyBlock, '');
  // The full template is a private workspace of the repository, made publishable here. The
  // minimal one ships as the user gets it: private at 0.1.0, since it runs from its sources.
  if (relativePath === 'package.json' && variant === 'full') text = transformPackageManifest(text);
  return Buffer.from(text, 'utf8');
}

/**
 * Copies the adapter template to a new directory as a new adapter: tokens replaced in file
 * names and contents, `_gitignore` renamed to `.gitignore`, the package made public at
 * version 0.1.0 with a fresh CHANGELOG. With `minimal`, copies the minimal template instead
 * (a local adapter: one adapter file, its conformance test and the workflow), without a
 * CHANGELOG. It never prints. Throws `MemoryValidationError` naming the bad option (a name
 * that is not kebab-case, a directory that is not empty).
 */
export function scaffoldAdapter(options: ScaffoldAdapterOptions): ScaffoldAdapterResult {
  const valid = parseInput(optionsSchema, options, 'scaffold options');
  const names = toProviderNames(valid.name);
  const packageName = valid.packageName ?? defaultPackageName(valid.name);
  const directory = resolve(valid.directory ?? basename(packageName));
  assertWritableTarget(directory, valid.force ?? false);
  const variant: TemplateVariant = valid.minimal === true ? 'minimal' : 'full';
  const templateDirectory = valid.templateDirectory ?? findTemplateDirectory(undefined, variant);
  const replacements: TokenReplacements = { names, packageName };

  const files: string[] = [];
  for (const templatePath of listTemplateFiles(templateDirectory)) {
    const targetPath = renameTemplatePath(templatePath, replacements);
    const content = renderFile(readFileSync(join(templateDirectory, templatePath)), targetPath, replacements, variant);
    mkdirSync(dirname(join(directory, targetPath)), { recursive: true });
    writeFileSync(join(directory, targetPath), content);
    files.push(targetPath);
  }
  if (variant === 'full') {
    writeFileSync(join(directory, 'CHANGELOG.md'), `# ${packageName}\n\n## 0.1.0\n\n- Initial release.\n`);
    files.push('CHANGELOG.md');
  }
  return { directory, packageName, names, files: files.sort() };
}
