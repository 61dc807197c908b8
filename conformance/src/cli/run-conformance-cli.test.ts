import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../run-conformance';
import { runConformanceCli } from './run-conformance-cli';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const packageRoot = here('../../');
const cliSource = here('./memplane-conformance.ts');
const referenceEntry = here('../../../adapters/memory/conformance-entry.ts');
const brokenModule = here('../__fixtures__/broken-adapters/cli-broken-module.ts');
const loaderFixture = here('../__fixtures__/modules/default-export.ts');
const noFactoryFixture = here('../__fixtures__/modules/no-factory.ts');
// The CLI and the modules it loads take @memplane/core from its sources, as the other tests do,
// so the spawned runs never test against a stale build: tsx reads the paths of this tsconfig,
// and jiti (which loads the module) reads JITI_ALIAS.
const workspaceSourcesTsconfig = here('../__fixtures__/tsconfig.workspace-sources.json');
const coreSources = here('../../../packages/core/src/index.ts');

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

function spawnCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  return new Promise((resolve) => {
    const env = { ...process.env, JITI_ALIAS: JSON.stringify({ '@memplane/core': coreSources }) };
    const argv = [tsxCli, '--tsconfig', workspaceSourcesTsconfig, cliSource, ...args];
    execFile(process.execPath, argv, { cwd: packageRoot, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('runConformanceCli (in process)', () => {
  it('exits 2 with the usage on stderr for a missing module, an unknown flag or extra arguments', async () => {
    for (const argv of [[], ['--nope', 'module.ts'], ['one.ts', 'two.ts']]) {
      const captured = captureIo();
      expect(await runConformanceCli(argv, captured.io)).toBe(2);
      expect(captured.stderr()).toContain('Usage: memplane-conformance <module>');
      expect(captured.stdout()).toBe('');
    }
  });

  it('prints the usage on stdout and exits 0 for --help', async () => {
    const captured = captureIo();
    expect(await runConformanceCli(['--help'], captured.io)).toBe(0);
    expect(captured.stdout()).toContain('--only prefix');
  });

  it('exits 2 for an --only prefix that names no rule, and 1 for a module without an adapter factory', async () => {
    const badOnly = captureIo();
    expect(await runConformanceCli([loaderFixture, '--only', 'nothing.like.this'], badOnly.io)).toBe(2);
    expect(badOnly.stderr()).toContain('only.0');
    const noFactory = captureIo();
    expect(await runConformanceCli([noFactoryFixture], noFactory.io)).toBe(1);
    expect(noFactory.stderr()).toContain('has no adapter factory');
  });
});

describe('memplane-conformance (spawned)', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'memplane-conformance-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('passes the reference adapter entry: exit 0, one line per rule, the count line last, and a JSON report', async () => {
    const reportPath = join(directory, 'report.json');
    const { code, stdout, stderr } = await spawnCli([referenceEntry, '--json', reportPath]);
    const lines = stdout.trimEnd().split('\n');
    const failures = lines.filter((line) => line.startsWith('FAIL  '));
    expect(stderr).toBe('');
    expect(failures).toEqual([]);
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as ConformanceReport;
    expect(lines).toHaveLength(report.results.length + 1);
    expect(lines).toContain('PASS  scope.isolation.companyId.query');
    expect(lines.filter((line) => line.startsWith('SKIP  ')).every((line) => /^SKIP {2}\S+: \S/.test(line))).toBe(true);
  }, 120_000);

  it('fails a broken module: exit 1 and FAIL lines naming the company-isolation rules', async () => {
    const { code, stdout } = await spawnCli([brokenModule, '--only', 'scope.isolation.companyId']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAIL {2}scope\.isolation\.companyId\.query: Expected a query in company B to return no records/m);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
  }, 120_000);
});
