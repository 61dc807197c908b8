/**
 * The docs run as written: every TypeScript block of the documentation compiles under nodenext
 * against the built workspace packages, as a reader's project would see them, and the blocks
 * marked `run` print what their `// →` comments say. Needs the packages built (`npm test` builds
 * them first).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  documentationCodeBlocks,
  documentedFiles,
  expectedOutput,
  extractCodeBlocks,
  relativeImports,
  repositoryRoot,
  type DocsCodeBlock,
} from './docs-code-blocks';

/** Inside the repository's ignored `.tmp/`, so workspace packages resolve through node_modules. */
const workDirectory = join(repositoryRoot, '.tmp', 'docs-code-blocks');
const fixtures = join(import.meta.dirname, 'docs-fixtures');
/** Fragments are excerpts no reader can compile; keep them few. */
const maximumFragments = 3;

const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ['**/*.ts'],
};

/** The folder of a block: one per document for blocks that name their file, so they import each other. */
function slug(block: DocsCodeBlock): string {
  const document = block.document.replace(/[^\w]+/g, '-');
  return block.fileName === undefined ? `${document}-L${block.line}` : document;
}

/** Writes a block as a file of its own folder, with the fixtures its relative imports name. */
function writeBlock(block: DocsCodeBlock): { file: string; missing: string[] } {
  const folder = join(workDirectory, slug(block));
  const file = join(folder, block.fileName ?? 'block.ts');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, block.code);
  const missing: string[] = [];
  for (const specifier of relativeImports(block.code)) {
    const target = posix.join(posix.dirname(block.fileName ?? 'block.ts'), specifier).replace(/\.js$/, '.ts');
    const fixture = join(fixtures, posix.basename(target));
    if (existsSync(join(folder, target))) continue;
    if (!existsSync(fixture)) {
      missing.push(specifier);
      continue;
    }
    mkdirSync(dirname(join(folder, target)), { recursive: true });
    copyFileSync(fixture, join(folder, target));
    // A fixture may import another fixture beside it.
    for (const sibling of readdirSync(fixtures)) {
      const besides = join(dirname(join(folder, target)), sibling);
      if (!existsSync(besides)) copyFileSync(join(fixtures, sibling), besides);
    }
  }
  return { file, missing };
}

const blocks = documentationCodeBlocks();
const fragments = blocks.filter((block) => block.flags.includes('fragment'));
const checked = blocks.filter((block) => !block.flags.includes('fragment'));
const written = new Map<DocsCodeBlock, { file: string; missing: string[] }>();

beforeAll(() => {
  rmSync(workDirectory, { recursive: true, force: true });
  mkdirSync(workDirectory, { recursive: true });
  writeFileSync(join(workDirectory, 'package.json'), `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(workDirectory, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  for (const block of checked) written.set(block, writeBlock(block));
});

describe('documentation code blocks', () => {
  it('reads blocks, their flags and the file they name', () => {
    const markdown = ['# t', '```ts run', '// src/a.test.ts', "import { x } from './b.js';", '```', '```sh', 'ls', '```', '```ts fragment', 'f();', '```'].join('\n');
    const found = extractCodeBlocks('t.md', markdown);
    expect(found.map(({ line, flags, fileName }) => ({ line, flags, fileName }))).toEqual([
      { line: 2, flags: ['run'], fileName: 'src/a.test.ts' },
      { line: 9, flags: ['fragment'], fileName: undefined },
    ]);
    expect(relativeImports(found[0]?.code ?? '')).toEqual(['./b.js']);
    expect(expectedOutput("console.log(1); // → 1\nconsole.log('a'); // → a")).toEqual(['1', 'a']);
  });

  it('finds the blocks of the root README, the package READMEs and docs/', () => {
    const documents = new Set(blocks.map((block) => block.document));
    for (const document of ['README.md', 'packages/core/README.md', 'adapters/memory/README.md', 'docs/conformance-in-ci.md', 'docs/service/running-the-service.md']) {
      expect(documents).toContain(document);
    }
    expect(checked.length).toBeGreaterThan(15);
  });

  it('reads the documents in the subfolders of docs/ too', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-code-blocks-'));
    try {
      mkdirSync(join(root, 'docs', 'service'), { recursive: true });
      for (const file of ['README.md', 'docs/guide.md', 'docs/service/pages.md', 'docs/service/notes.txt']) writeFileSync(join(root, file), '# t\n');
      expect(documentedFiles(root)).toEqual(['README.md', join('docs', 'guide.md'), join('docs', 'service', 'pages.md')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it(`marks at most ${maximumFragments} blocks as fragments`, () => {
    expect(fragments.map((block) => `${block.document}:${block.line}`).length).toBeLessThanOrEqual(maximumFragments);
  });

  it('every relative import of a block is a file the reader writes (a fixture here)', () => {
    const missing = checked.flatMap((block) => (written.get(block)?.missing ?? []).map((specifier) => `${block.document}:${block.line} imports ${specifier}`));
    expect(missing).toEqual([]);
  });

  it('every block that is not a fragment compiles under nodenext', () => {
    const tsc = spawnSync(process.execPath, [join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-p', workDirectory], {
      cwd: workDirectory,
      encoding: 'utf8',
    });
    // Name the document and line of each error rather than the temporary file.
    const errors = `${tsc.stdout}${tsc.stderr}`
      .split('\n')
      .filter((line) => /error TS\d+/.test(line))
      .map((line) => {
        const owner = checked.find((block) => line.startsWith(`${slug(block)}/${block.fileName ?? 'block.ts'}(`));
        return owner === undefined ? line : `${owner.document}:${owner.line}: ${line.slice(slug(owner).length + 1)}`;
      });
    expect(errors).toEqual([]);
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('every block marked run runs offline and prints what its comments promise', () => {
    const runnable = checked.filter((block) => block.flags.includes('run'));
    expect(runnable.map((block) => block.document)).toContain('README.md');
    for (const block of runnable) {
      const file = written.get(block)?.file ?? '';
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
        cwd: dirname(file),
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(run.status, `${block.document}:${block.line}\n${run.stderr}`).toBe(0);
      const printed = run.stdout.trim().split('\n').map((line) => line.trim());
      expect(printed, `${block.document}:${block.line}`).toEqual(expectedOutput(block.code));
    }
  }, 120_000);
});
