/**
 * The TypeScript code blocks of the documentation: the root README, every package README, the
 * examples' READMEs and every document under docs/, its subfolders included. Each ```ts (or ```typescript) block is a whole module that must
 * compile under nodenext; info words after the language change that:
 * - `fragment`: an excerpt that cannot compile alone (a skeleton with elided bodies). It is counted
 *   and kept few, never type-checked.
 * - `run`: the block also runs, offline; each `// → text` comment is a line it must print, in order.
 * A block whose first line is a comment naming a file (`// src/x.test.ts`) is written under that
 * name, so its relative imports resolve as they would in the reader's project.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One code block of a document. */
export interface DocsCodeBlock {
  /** The document, relative to the repository root. */
  document: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** The info words after the language. */
  flags: string[];
  /** The file name the block names on its first line, if any. */
  fileName: string | undefined;
  /** The block's text. */
  code: string;
}

export const repositoryRoot = join(import.meta.dirname, '..');

/** Every markdown document whose code blocks are checked. */
export function documentedFiles(root = repositoryRoot): string[] {
  const inFolder = (folder: string) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder)).map((child) => join(folder, child))
      : [];
  const readmes = ['packages', 'adapters', 'examples', 'internal']
    .flatMap(inFolder)
    .concat(['conformance'])
    .map((folder) => join(folder, 'README.md'));
  const markdownUnder = (folder: string): string[] =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? markdownUnder(join(folder, entry.name)) : entry.name.endsWith('.md') ? [join(folder, entry.name)] : [],
        )
      : [];
  const docs = markdownUnder('docs');
  return ['README.md', ...readmes, ...docs].filter((file) => existsSync(join(root, file))).sort();
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)\s*(.*)$/;

/** The ts/typescript blocks of one markdown text. */
export function extractCodeBlocks(document: string, markdown: string): DocsCodeBlock[] {
  const blocks: DocsCodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const opening = fence.exec(lines[index] ?? '');
    if (opening === null) continue;
    const [, indent = '', marker = '', language = '', info = ''] = opening;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const text = lines[end] ?? '';
      if (text.trim().startsWith(marker) && text.trim().replace(/[`~]/g, '') === '') break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text);
    }
    if (language === 'ts' || language === 'typescript') {
      const named = /^\/\/\s*([\w./-]+\.(?:ts|mts|cts))\s*$/.exec(body[0] ?? '');
      blocks.push({
        document,
        line: index + 1,
        flags: info.split(/\s+/).filter((word) => word !== ''),
        fileName: named?.[1],
        code: `${body.join('\n')}\n`,
      });
    }
    index = end;
  }
  return blocks;
}

/** Every checked block of the repository's documentation. */
export function documentationCodeBlocks(root = repositoryRoot): DocsCodeBlock[] {
  return documentedFiles(root).flatMap((file) => extractCodeBlocks(relative(root, join(root, file)), readFileSync(join(root, file), 'utf8')));
}

/** The lines a `run` block promises to print: its `// → text` comments, in order. */
export function expectedOutput(code: string): string[] {
  return [...code.matchAll(/\/\/ → (.*)$/gm)].map((match) => (match[1] ?? '').trim());
}

/** The relative module specifiers a block imports. */
export function relativeImports(code: string): string[] {
  return [...code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? '');
}
