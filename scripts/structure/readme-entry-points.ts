import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import type { Manifest, WorkspacePackage } from './workspace';

/**
 * The import specifiers of a package's entry points: `@memplane/x` for `.`, `@memplane/x/sub`
 * for `./sub`, one per subpath of its exports map except `./package.json`. An exports map of
 * conditions only (or a string) is the `.` entry alone.
 */
export function entryPointSpecifiers(manifest: Manifest): string[] {
  const exportsField = manifest.exports;
  if (exportsField === undefined) return [];
  const subpaths = typeof exportsField === 'object' && Object.keys(exportsField).some((key) => key.startsWith('.')) ? Object.keys(exportsField) : ['.'];
  return subpaths.filter((subpath) => subpath !== './package.json').map((subpath) => `${manifest.name}${subpath.slice(1)}`);
}

/**
 * The texts of a README where an entry point counts as having a section: each heading, each
 * table row, and each list item (its own paragraphs, without the lists nested in it).
 */
export function sectionTexts(markdown: string): string[] {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const texts: string[] = [];
  visit(tree, (node: Nodes) => {
    if (node.type === 'heading') texts.push(toString(node));
    // Cells apart: toString would run `@memplane/x` into the next cell's text.
    if (node.type === 'tableRow') texts.push(node.children.map((cell) => toString(cell)).join(' | '));
    if (node.type === 'listItem') texts.push(node.children.filter((child) => child.type !== 'list').map((child) => toString(child)).join('\n'));
  });
  return texts;
}

/** Whether `text` names `specifier` itself: `@memplane/service` is not named by `@memplane/service-postgres` or `@memplane/service/testing`. */
export function namesSpecifier(text: string, specifier: string): boolean {
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w@/.-])${escaped}(?![\\w/-])`).test(text);
}

/**
 * A public package whose README lacks a section for an entry point of its exports map: the
 * README must name the full specifier in a heading, a table row or a list item, so a reader
 * finds what each entry point is for.
 */
export function readmeEntryPointProblems(root: string, { folder, manifest }: WorkspacePackage): string[] {
  if (manifest.private === true) return [];
  const readme = join(root, folder, 'README.md');
  if (!existsSync(readme)) return []; // the skeleton check reports the missing README
  const texts = sectionTexts(readFileSync(readme, 'utf8'));
  return entryPointSpecifiers(manifest)
    .filter((specifier) => !texts.some((text) => namesSpecifier(text, specifier)))
    .map((specifier) => `README.md has no section for the entry point ${specifier} (name it in a heading, a table row or a list item)`);
}
