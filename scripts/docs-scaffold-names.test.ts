/**
 * The guides and the scaffold agree. A reader who ran `npm create memplane-adapter acme-memory`
 * (or `acme-local --minimal`) finds every file, function and workflow that docs/conformance-in-ci.md
 * and the scaffold, CI and provider description sections of docs/writing-an-adapter.md name, under
 * the names they use:
 * - every file the guides name in inline code (`conformance-entry.ts`, `src/<id>-client.ts`,
 *   `.github/workflows/conformance.yml`) is a file of one of the two scaffolds;
 * - every function they name in inline code that carries the provider id
 *   (`setupAcmeMemoryFakeServer()`) is exported by a file of the scaffold;
 * - every TypeScript block that names a file of the scaffold is that file (comments, blank lines
 *   and the `.js` of relative imports aside), and what it imports from the scaffold's other files
 *   is exported there;
 * - the CI guide's workflow block is the scaffold's workflow (comments aside).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scaffoldAdapter } from '../packages/create-memplane-adapter/src/scaffold-adapter';
import { extractCodeBlocks, relativeImports, repositoryRoot } from './docs-code-blocks';

const ciGuide = 'docs/conformance-in-ci.md';
const adapterGuide = 'docs/writing-an-adapter.md';
/** The sections of the adapter guide about the scaffold, the CI and the provider description; the others are about the contract. */
const adapterGuideSections = [/^## 1\. Scaffold/, /^## 6\. Run the suite/, /^## 7\. Describe your provider/];

const read = (document: string) => readFileSync(join(repositoryRoot, document), 'utf8');

/** The parts of a guide that describe the scaffold: the whole CI guide, the scaffold and CI sections of the adapter guide. */
function scaffoldText(document: string): string {
  const markdown = read(document);
  if (document !== adapterGuide) return markdown;
  return markdown
    .split(/^(?=## )/m)
    .filter((section) => adapterGuideSections.some((heading) => heading.test(section)))
    .join('\n');
}

/** Inline code spans outside fenced blocks. */
function inlineCode(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
}

/** The files a span names: a whole span that is a file name, or the `.ts`/`.yml` arguments of a command. */
function fileNamesIn(span: string): string[] {
  if (/^[\w.<>/-]+\.(ts|ya?ml|json)$/.test(span)) return [span];
  return span
    .split(/\s+/)
    .filter((word) => /^(\.\/)?[\w.<>/-]+\.(ts|ya?ml)$/.test(word))
    .map((word) => word.replace(/^\.\//, ''));
}

/** Code to compare: no comments, no blank lines, relative imports without `.js`. */
function comparable(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('//'))
    .map((line) => line.replace(/(from\s+['"]\.{1,2}\/[^'"]+?)\.js(['"])/, '$1$2'))
    .join('\n');
}

function exports(code: string, name: string): boolean {
  return (
    new RegExp(`export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b`).test(code) ||
    new RegExp(`export\\s*(?:type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}`).test(code)
  );
}

/** The names a block imports from one relative module. */
function importedNames(code: string, specifier: string): string[] {
  const escaped = specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...code.matchAll(new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${escaped}['"]`, 'g'))].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0] ?? '')
      .filter((name) => name !== ''),
  );
}

let scratch = '';
/** Every file of the two scaffolds, by its path in the scaffold, with its text. */
const scaffolded = new Map<string, string>();

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'memplane-docs-scaffold-'));
  // The package name of the guide's scaffold command, which the provider description names.
  for (const options of [{ name: 'acme-memory', packageName: '@acme/memplane-adapter' }, { name: 'acme-local', minimal: true }]) {
    const result = scaffoldAdapter({ ...options, directory: join(scratch, options.name) });
    for (const file of result.files) {
      // A file both scaffolds write (the workflow, package.json) is compared with the full one's.
      if (!scaffolded.has(file)) scaffolded.set(file, readFileSync(join(result.directory, file), 'utf8'));
    }
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the guides and the scaffold', () => {
  it('name only files the scaffold writes', () => {
    const named = [ciGuide, adapterGuide].flatMap((document) =>
      inlineCode(scaffoldText(document))
        .flatMap(fileNamesIn)
        .map((file) => ({ document, file: file.replaceAll('<id>', 'acme-memory') })),
    );
    expect(named.map(({ file }) => file)).toEqual(expect.arrayContaining(['conformance-entry.ts', '.github/workflows/conformance.yml']));
    expect(named.filter(({ file }) => !scaffolded.has(file))).toEqual([]);
  });

  it("name only functions of the provider that the scaffold exports", () => {
    const allCode = [...scaffolded.entries()].filter(([file]) => file.endsWith('.ts')).map(([, code]) => code);
    const named = [ciGuide, adapterGuide].flatMap((document) =>
      inlineCode(scaffoldText(document))
        .map((span) => /^(\w+)\(\)$/.exec(span)?.[1])
        .filter((name): name is string => name !== undefined && /acme/i.test(name))
        .map((name) => ({ document, name })),
    );
    expect(named.map(({ name }) => name)).toContain('setupAcmeMemoryFakeServer');
    expect(named.filter(({ name }) => !allCode.some((code) => exports(code, name)))).toEqual([]);
  });

  it('show the files of the scaffold as the scaffold writes them, importing what its files export', () => {
    const blocks = [ciGuide, adapterGuide].flatMap((document) =>
      extractCodeBlocks(document, scaffoldText(document)).filter((block) => block.fileName !== undefined),
    );
    expect(blocks.map((block) => block.fileName)).toEqual(
      expect.arrayContaining(['src/acme-memory-adapter.conformance.test.ts', 'conformance-entry.ts', 'src/provider.ts']),
    );
    for (const block of blocks) {
      const fileName = block.fileName ?? '';
      const where = `${block.document}:${block.line} (${fileName})`;
      const scaffoldFile = scaffolded.get(fileName);
      expect(scaffoldFile, `${where} names no file of the scaffold`).toBeDefined();
      expect(comparable(block.code), where).toBe(comparable(scaffoldFile ?? ''));
      for (const specifier of relativeImports(block.code)) {
        const target = posix.join(posix.dirname(fileName), specifier).replace(/\.js$/, '.ts');
        const imported = scaffolded.get(target);
        expect(imported, `${where} imports ${specifier}, which the scaffold does not write`).toBeDefined();
        const missing = importedNames(block.code, specifier).filter((name) => !exports(imported ?? '', name));
        expect(missing, `${where} imports from ${specifier}`).toEqual([]);
      }
    }
  });

  it("show the scaffold's workflow in the CI guide", () => {
    const yamlBlocks = [...read(ciGuide).matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
    expect(yamlBlocks).toHaveLength(1);
    expect(read(ciGuide)).toContain('Save as `.github/workflows/conformance.yml`');
    expect(parse(yamlBlocks[0] ?? '')).toEqual(parse(scaffolded.get('.github/workflows/conformance.yml') ?? ''));
  });
});
