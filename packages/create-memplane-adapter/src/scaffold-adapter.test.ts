import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MemoryValidationError } from '@memplane/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTemplateDirectory } from './find-template-directory';
import { protectedLiterals } from './replace-tokens';
import { scaffoldAdapter, type ScaffoldAdapterResult } from './scaffold-adapter';

const run = promisify(execFile);

/** The part of vitest's JSON report the test reads. */
interface VitestJsonReport {
  numFailedTests: number;
  testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; status: string }> }>;
}
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = resolve(packageRoot, '..', '..');

/** A child process environment without the variables of the vitest run this test is part of. */
function childEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'),
  );
}

async function runInChild(command: string, args: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: childEnvironment(), maxBuffer: 32 * 1024 * 1024 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** The scaffolds resolve the @memplane packages through node_modules, so their dist must exist. */
function expectPackagesBuilt(): void {
  const needed = ['packages/core', 'packages/test-server', 'conformance'].filter(
    (folder) => !existsSync(join(repositoryRoot, folder, 'dist', 'index.d.ts')),
  );
  if (needed.length > 0) {
    throw new Error(
      `Build the @memplane packages first (npm test does): ${needed.join(
        ', ',
      )} have no dist. Run: npx turbo run build --filter=@memplane/core --filter=@memplane/test-server --filter=@memplane/conformance`,
    );
  }
}

/**
 * Runs the scaffold's own type check and vitest, and returns vitest's outcomes of the conformance
 * suite and of the provider description's tests (`src/provider.test.ts`).
 */
async function runScaffoldTests(directory: string, report: string, suiteName: string) {
  const typeCheck = await runInChild('npx', ['tsc', '--noEmit', '-p', directory], directory);
  expect(typeCheck.ok, typeCheck.output).toBe(true);
  const tests = await runInChild(
    'npx',
    ['vitest', 'run', '--root', directory, '--reporter=json', `--outputFile=${report}`],
    directory,
  );
  expect(tests.ok, tests.output).toBe(true);
  const results = JSON.parse(readFileSync(report, 'utf8')) as VitestJsonReport;
  expect(results.numFailedTests).toBe(0);
  const outcomes = results.testResults.flatMap((file) => file.assertionResults);
  return {
    conformance: outcomes.filter((outcome) => outcome.ancestorTitles.includes(`memplane conformance: ${suiteName}`)),
    provider: outcomes.filter((outcome) => outcome.ancestorTitles.includes('the provider description')),
  };
}

/** A scaffolded file's text without the literals the scaffolder keeps (`.env.example`, `configExample`). */
function withoutProtectedLiterals(text: string): string {
  return protectedLiterals.reduce((remaining, literal) => remaining.split(literal).join(''), text);
}

function fieldOf(call: () => unknown): string | undefined {
  try {
    call();
  } catch (error) {
    if (MemoryValidationError.isInstance(error)) return error.field;
    throw error;
  }
  return undefined;
}

describe('scaffoldAdapter with a small template', () => {
  let workspace: string;
  let template: string;

  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'create-memplane-adapter-'));
    template = join(workspace, 'template');
    mkdirSync(join(template, 'src', 'node_modules'), { recursive: true });
    mkdirSync(join(template, 'dist'), { recursive: true });
    writeFileSync(
      join(template, 'package.json'),
      JSON.stringify(
        { name: '@memplane/adapter-template', version: '0.0.0', private: true, description: 'Example adapter.' },
        null,
        2,
      ),
    );
    writeFileSync(
      join(template, 'README.md'),
      '# @memplane/adapter-template\n<!-- template-only:start -->\nOnly for the template.\n<!-- template-only:end -->\nUse createExampleAdapter; cp .env.example .env\n',
    );
    writeFileSync(join(template, 'CHANGELOG.md'), '# @memplane/adapter-template\n\n## 0.0.0\n\n- Old history.\n');
    writeFileSync(join(template, '_gitignore'), 'node_modules/\n');
    writeFileSync(join(template, '.env.example'), 'EXAMPLE_API_KEY=\n');
    writeFileSync(join(template, '.env'), 'EXAMPLE_API_KEY=secret\n');
    writeFileSync(join(template, 'src', 'example-adapter.ts'), "export const exampleKey = 'example';\n");
    writeFileSync(join(template, 'src', 'node_modules', 'left-behind.js'), '');
    writeFileSync(join(template, 'dist', 'index.js'), '');
    writeFileSync(join(template, 'logo-example.bin'), Buffer.from([0, 101, 120, 97, 109, 112, 108, 101]));
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('copies, renames and rewrites the template and returns the files it wrote', () => {
    const directory = join(workspace, 'acme');
    const result = scaffoldAdapter({
      name: 'acme-memory',
      directory,
      templateDirectory: template,
      packageName: '@acme/memplane-adapter',
    });

    expect(result).toMatchObject({ directory, packageName: '@acme/memplane-adapter', names: { pascal: 'AcmeMemory' } });
    expect(result.files).toEqual([
      '.env.example',
      '.gitignore',
      'CHANGELOG.md',
      'README.md',
      'logo-acme-memory.bin',
      'package.json',
      'src/acme-memory-adapter.ts',
    ]);
    expect(JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'))).toEqual({
      name: '@acme/memplane-adapter',
      version: '0.1.0',
      description: 'AcmeMemory adapter.',
    });
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).toBe(
      '# @acme/memplane-adapter\nUse createAcmeMemoryAdapter; cp .env.example .env\n',
    );
    expect(readFileSync(join(directory, 'CHANGELOG.md'), 'utf8')).toBe(
      '# @acme/memplane-adapter\n\n## 0.1.0\n\n- Initial release.\n',
    );
    expect(readFileSync(join(directory, '.env.example'), 'utf8')).toBe('ACME_MEMORY_API_KEY=\n');
    expect(readFileSync(join(directory, 'src', 'acme-memory-adapter.ts'), 'utf8')).toBe(
      "export const acmeMemoryKey = 'acme-memory';\n",
    );
    expect([...readFileSync(join(directory, 'logo-acme-memory.bin'))]).toEqual([0, 101, 120, 97, 109, 112, 108, 101]);
  });

  it('defaults the package name and the directory to memplane-adapter-<name>', () => {
    const previous = process.cwd();
    process.chdir(workspace);
    try {
      const result = scaffoldAdapter({ name: 'zep', templateDirectory: template });
      expect(result.packageName).toBe('memplane-adapter-zep');
      expect(result.directory).toBe(join(workspace, 'memplane-adapter-zep'));
    } finally {
      process.chdir(previous);
    }
  });

  it('refuses a directory that is not empty unless forced, and a file', () => {
    const directory = join(workspace, 'busy');
    mkdirSync(directory);
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    expect(fieldOf(() => scaffoldAdapter({ name: 'acme', directory, templateDirectory: template }))).toBe('directory');
    expect(scaffoldAdapter({ name: 'acme', directory, templateDirectory: template, force: true }).files).toContain(
      'package.json',
    );
    expect(readFileSync(join(directory, 'notes.txt'), 'utf8')).toBe('mine');
    expect(
      fieldOf(() =>
        scaffoldAdapter({
          name: 'acme',
          directory: join(directory, 'notes.txt'),
          templateDirectory: template,
          force: true,
        }),
      ),
    ).toBe('directory');
  });

  it('names the bad option', () => {
    expect(fieldOf(() => scaffoldAdapter({ name: 'Acme Memory', templateDirectory: template }))).toBe('name');
    expect(
      fieldOf(() => scaffoldAdapter({ name: 'acme', packageName: 'Not Valid', templateDirectory: template })),
    ).toBe('packageName');
    expect(fieldOf(() => scaffoldAdapter({ name: 'acme', directory: '', templateDirectory: template }))).toBe(
      'directory',
    );
  });

  it('finds the template of the repository when template/ is absent, and the minimal one in the package', () => {
    expect(findTemplateDirectory()).toBe(join(repositoryRoot, 'adapters', '_template'));
    expect(findTemplateDirectory(undefined, 'minimal')).toBe(join(packageRoot, 'template-minimal'));
  });
});

describe('scaffoldAdapter with the real template', () => {
  const scratch = join(packageRoot, '.tmp', randomUUID());
  const directory = join(scratch, 'acme-memory');
  let result: ScaffoldAdapterResult;

  beforeAll(() => {
    expectPackagesBuilt();
    result = scaffoldAdapter({ name: 'acme-memory', directory });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('writes a complete adapter package with every token replaced', () => {
    expect(result.files).toEqual(
      expect.arrayContaining([
        '.env.example',
        '.gitignore',
        'CHANGELOG.md',
        'README.md',
        'package.json',
        'src/index.ts',
        'src/acme-memory-adapter.ts',
        'src/acme-memory-client.ts',
        'src/acme-memory-adapter.conformance.test.ts',
        'src/provider.ts',
        'src/provider.test.ts',
      ]),
    );
    expect(
      result.files.filter((file) => /(^|\/)(node_modules|dist|\.tmp)\/|_gitignore|(^|\/)\.env$/.test(file)),
    ).toEqual([]);

    const leftovers = result.files.flatMap((file) => {
      const content = withoutProtectedLiterals(readFileSync(join(directory, file), 'utf8'));
      return /example/i.test(content) || /example/i.test(file.replace('.env.example', '')) ? [file] : [];
    });
    expect(leftovers).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'memplane-adapter-acme-memory', version: '0.1.0' });
    expect(manifest).toHaveProperty(['exports', './provider', 'import', 'types'], './dist/provider.d.ts');
    expect(readFileSync(join(directory, 'src', 'provider.ts'), 'utf8')).toContain("providerId: 'acme-memory'");
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).toContain('## Provider description: `memplane-adapter-acme-memory/provider`');
    expect(manifest).not.toHaveProperty('private');
    expect(readFileSync(join(directory, 'src', 'index.ts'), 'utf8')).toContain('export { createAcmeMemoryAdapter }');
    expect(readFileSync(join(directory, '.env.example'), 'utf8')).toContain('ACME_MEMORY_API_KEY=');
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).not.toContain('template-only');
  });

  it('is ready for CI and the registry: a conformance workflow, memplane-adapter keywords, reports ignored', () => {
    expect(result.files).toContain('.github/workflows/conformance.yml');
    const workflow = readFileSync(join(directory, '.github', 'workflows', 'conformance.yml'), 'utf8');
    expect(workflow).toMatch(/^on:\n {2}push:\n {2}pull_request:/m);
    expect(workflow).toContain('npx memplane-conformance ./conformance-entry.ts --json conformance-report.json --junit conformance-junit.xml');
    expect(workflow).toContain('actions/upload-artifact@v4');
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { keywords?: string[] };
    expect(manifest.keywords).toEqual(expect.arrayContaining(['memplane', 'memplane-adapter', 'acme-memory']));
    const ignored = readFileSync(join(directory, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['conformance-report.json', 'conformance-junit.xml', 'node_modules/', '.env']));
  });

  it('passes the suite with the exact command of its workflow, writing both reports', async () => {
    const workflow = readFileSync(join(directory, '.github', 'workflows', 'conformance.yml'), 'utf8');
    const command = /npx memplane-conformance (.+)$/m.exec(workflow)?.[1]?.trim().split(/\s+/) ?? [];
    expect(command[0]).toBe('./conformance-entry.ts');
    const bin = join(repositoryRoot, 'conformance', 'dist', 'cli', 'memplane-conformance.js');
    const outcome = await runInChild(process.execPath, [bin, ...command], directory);
    expect(outcome.ok, outcome.output).toBe(true);
    expect(outcome.output).toMatch(/\n\d+ passed, 0 failed, \d+ skipped\n/);
    const report = JSON.parse(readFileSync(join(directory, 'conformance-report.json'), 'utf8')) as { failed: number; adapter?: { key: string } };
    expect(report.failed).toBe(0);
    expect(report.adapter?.key).toBe('acme-memory');
    expect(readFileSync(join(directory, 'conformance-junit.xml'), 'utf8')).toContain('<testsuite name="conformance-entry.ts"');
  }, 180_000);

  it('type-checks and passes its own tests, conformance and the provider description included', async () => {
    const { conformance, provider } = await runScaffoldTests(directory, join(scratch, 'vitest-report.json'), 'acme-memory');
    expect(conformance.filter((outcome) => outcome.status === 'passed').length).toBeGreaterThan(50);
    expect(conformance.filter((outcome) => outcome.status === 'failed')).toEqual([]);
    expect(provider.length).toBeGreaterThan(0);
    expect(provider.filter((outcome) => outcome.status !== 'passed')).toEqual([]);
  }, 180_000);
});

describe('scaffoldAdapter with the minimal template', () => {
  const scratch = join(packageRoot, '.tmp', randomUUID());
  const directory = join(scratch, 'acme-local');
  let result: ScaffoldAdapterResult;

  beforeAll(() => {
    expectPackagesBuilt();
    result = scaffoldAdapter({ name: 'acme-local', directory, minimal: true });
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('writes one adapter file, its conformance test, its provider description, the workflow and what runs them, every token replaced', () => {
    expect(result.files).toEqual([
      '.github/workflows/conformance.yml',
      '.gitignore',
      'package.json',
      'src/acme-local-adapter.conformance.test.ts',
      'src/acme-local-adapter.ts',
      'src/provider.test.ts',
      'src/provider.ts',
      'tsconfig.json',
      'vitest.config.ts',
    ]);
    const leftovers = result.files.filter(
      (file) => /example/i.test(file) || /example/i.test(withoutProtectedLiterals(readFileSync(join(directory, file), 'utf8'))),
    );
    expect(leftovers).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'memplane-adapter-acme-local',
      version: '0.1.0',
      private: true,
      exports: { '.': './src/acme-local-adapter.ts', './provider': './src/provider.ts' },
      scripts: { test: 'vitest run', 'type-check': 'tsc --noEmit' },
    });
    expect(readFileSync(join(directory, 'src', 'acme-local-adapter.ts'), 'utf8')).toContain(
      'export function createAcmeLocalAdapter(',
    );
    expect(readFileSync(join(directory, '.github', 'workflows', 'conformance.yml'), 'utf8')).toContain('run: npm test');
  });

  it('type-checks and passes the whole conformance suite and its provider description out of the box', async () => {
    const { conformance, provider } = await runScaffoldTests(directory, join(scratch, 'vitest-report.json'), 'acme-local');
    expect(conformance.filter((outcome) => outcome.status === 'passed').length).toBeGreaterThan(50);
    expect(conformance.filter((outcome) => outcome.status === 'failed')).toEqual([]);
    expect(provider.length).toBeGreaterThan(0);
    expect(provider.filter((outcome) => outcome.status !== 'passed')).toEqual([]);
  }, 180_000);
});
