import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../run-conformance';
import { VERSION } from '../version';
import { conformanceCliUsage, runConformanceCli } from './run-conformance-cli';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const packageRoot = here('../../');
const cliSource = here('./memplane-conformance.ts');
const referenceEntry = here('../../../adapters/memory/conformance-entry.ts');
const brokenModule = here('../__fixtures__/broken-adapters/cli-broken-module.ts');
const loaderFixture = here('../__fixtures__/modules/default-export.ts');
const noFactoryFixture = here('../__fixtures__/modules/no-factory.ts');
const throwingFactoryFixture = here('../__fixtures__/modules/throwing-factory.ts');
// The CLI and the modules it loads take @memplane/core from its sources, as the other tests do,
// so the spawned runs never test against a stale build: tsx reads the paths of this tsconfig,
// and jiti (which loads the module) reads JITI_ALIAS.
const workspaceSourcesTsconfig = here('../__fixtures__/tsconfig.workspace-sources.json');
const coreSources = here('../../../packages/core/src/index.ts');
const rulesSources = here('../../../packages/rules/src/index.ts');

function captureIo(options: { stdoutTty?: boolean; stderrTty?: boolean; commandName?: string; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text), isTTY: options.stdoutTty ?? false },
      stderr: { write: (text: string) => err.push(text), isTTY: options.stderrTty ?? false },
      env: options.env ?? {},
      ...(options.commandName === undefined ? {} : { commandName: options.commandName }),
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

function spawnCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  return new Promise((resolve) => {
    const env = { ...process.env, JITI_ALIAS: JSON.stringify({ '@memplane/rules': rulesSources, '@memplane/core': coreSources }) };
    const argv = [tsxCli, '--tsconfig', workspaceSourcesTsconfig, cliSource, ...args];
    execFile(process.execPath, argv, { cwd: packageRoot, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('runConformanceCli (in process)', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'conformance-cli-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('exits 2 naming the command for a missing module argument, an unknown flag or extra arguments, and prints nothing on stdout', async () => {
    for (const argv of [[], ['--nope', 'module.ts'], ['one.ts', 'two.ts']]) {
      const captured = captureIo();
      expect(await runConformanceCli(argv, captured.io)).toBe(2);
      expect(captured.stderr()).toMatch(/^memplane-conformance: error: /);
      expect(captured.stderr()).toContain('Run `memplane-conformance --help` for the usage.');
      expect(captured.stdout()).toBe('');
    }
  });

  it('prints the full usage on stdout and exits 0 for --help', async () => {
    const captured = captureIo();
    expect(await runConformanceCli(['--help'], captured.io)).toBe(0);
    for (const text of ['Usage: memplane-conformance [options] <module>', '--export <name>', '--json <path>', '--junit <path>', '--only <prefix>', '--version', 'Exit codes: 0 no rule failed, 1 a rule failed, 2 a usage']) {
      expect(captured.stdout()).toContain(text);
    }
    expect(conformanceCliUsage('memplane conformance')).toContain('Usage: memplane conformance [options] <module>');
  });

  it('prints the version for --version and -v, and exits 0', async () => {
    for (const flag of ['--version', '-v']) {
      const captured = captureIo();
      expect(await runConformanceCli([flag], captured.io)).toBe(0);
      expect(captured.stdout()).toBe(`${VERSION}\n`);
    }
  });

  it('names the command it runs as: memplane conformance, never memplane-conformance', async () => {
    for (const argv of [['--nope'], [join(directory, 'absent.ts')]]) {
      const captured = captureIo({ commandName: 'memplane conformance' });
      expect(await runConformanceCli(argv, captured.io)).toBe(2);
      expect(captured.stderr()).toMatch(/^memplane conformance: /);
      expect(captured.stderr()).not.toContain('memplane-conformance');
    }
  });

  it('exits 2 for an --only prefix that names no rule, a missing module, a bad --export, and a module without a factory', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[referenceEntry, '--only', 'nothing.like.this'], /--only nothing\.like\.this: names no conformance rule/],
      [[join(directory, 'absent.ts')], /Conformance module not found/],
      [[referenceEntry, '--export', 'createNothing'], /has no adapter factory: expected an export named `createNothing`/],
      [[noFactoryFixture], /has no adapter factory/],
    ];
    for (const [argv, message] of cases) {
      const captured = captureIo();
      expect(await runConformanceCli(argv, captured.io)).toBe(2);
      expect(captured.stderr()).toMatch(message);
      expect(captured.stdout()).toBe('');
    }
  });

  it('exits 2 with one clear error when the export does not return a MemoryAdapter', async () => {
    const captured = captureIo();
    expect(await runConformanceCli([loaderFixture], captured.io)).toBe(2);
    expect(captured.stderr().trimEnd().split('\n')).toHaveLength(1);
    expect(captured.stderr()).toMatch(/^memplane-conformance: MemoryConfigurationError \(MEMORY_CONFIGURATION\): createAdapter\(\) returned \{"origin":"default export"\}, which is not a MemoryAdapter: it lacks specificationVersion "v1"/);
    expect(captured.stdout()).toBe('');
    const throwing = captureIo();
    expect(await runConformanceCli([throwingFactoryFixture], throwing.io)).toBe(2);
    expect(throwing.stderr()).toBe('memplane-conformance: MemoryConfigurationError (MEMORY_CONFIGURATION): createAdapter() threw, so the suite has no adapter to test: TypeError: ACME_API_KEY is not set\n');
    expect(throwing.stdout()).toBe('');
  });

  it('checks the --json and --junit paths before any rule runs, without creating anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--json', join(directory, 'missing-folder', 'report.json')], /^memplane-conformance: --json \S+: the report file is in a folder that does not exist/],
      [['--junit', directory], /^memplane-conformance: --junit \S+: the report file is a folder\./],
      [['--json', join(directory, 'same.xml'), '--junit', join(directory, 'same.xml')], /--json and --junit name the same file/],
    ];
    for (const [flags, message] of cases) {
      const captured = captureIo();
      expect(await runConformanceCli([referenceEntry, ...flags], captured.io)).toBe(2);
      expect(captured.stderr()).toMatch(message);
      expect(captured.stdout()).toBe('');
    }
    expect(existsSync(join(directory, 'missing-folder'))).toBe(false);
    expect(existsSync(join(directory, 'same.xml'))).toBe(false);
  });

  it('shows progress only on a terminal stderr, and colours only a terminal stdout without NO_COLOR', async () => {
    const argv = [referenceEntry, '--only', 'scope.isolation.companyId.query'];
    const piped = captureIo();
    expect(await runConformanceCli(argv, piped.io)).toBe(0);
    expect(piped.stderr()).toBe('');
    expect(piped.stdout()).toBe('PASS  scope.isolation.companyId.query\n1 passed, 0 failed, 0 skipped\n');
    const terminal = captureIo({ stdoutTty: true, stderrTty: true });
    expect(await runConformanceCli(argv, terminal.io)).toBe(0);
    expect(terminal.stderr()).toContain('[1/1] scope.isolation.companyId.query');
    expect(terminal.stdout()).toContain('\u001B[32mPASS\u001B[39m  scope.isolation.companyId.query');
    const noColor = captureIo({ stdoutTty: true, env: { NO_COLOR: '1' } });
    expect(await runConformanceCli(argv, noColor.io)).toBe(0);
    expect(noColor.stdout()).toBe(piped.stdout());
  });

  it('prints under a failing rule its description and the fix hint with the link to the guide section, and keeps both in the JSON report', async () => {
    const jsonPath = join(directory, 'failing.json');
    const captured = captureIo();
    expect(await runConformanceCli([brokenModule, '--only', 'scope.isolation.companyId.query', '--json', jsonPath], captured.io)).toBe(1);
    const lines = captured.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^FAIL {2}scope\.isolation\.companyId\.query: Expected a query in company B to return no records/);
    expect(lines[1]).toBe("      Checks: A query in company B returns nothing written in company A, even when it asks for A's marker.");
    expect(lines[2]).toMatch(/^ {6}Fix: Send every scope field .+ See https:\/\/github\.com\/memplane\/memplane\/blob\/main\/docs\/writing-an-adapter\.md#3-map-the-scope-and-enforce-the-company-twice$/);
    expect(lines[3]).toBe('0 passed, 1 failed, 0 skipped');
    const report = JSON.parse(await readFile(jsonPath, 'utf8')) as ConformanceReport;
    expect(report.results[0]?.fix?.guide).toMatch(/#3-map-the-scope-and-enforce-the-company-twice$/);
  });

  it('writes a JSON report with the suite version, adapter key and capabilities, a timestamp and the Node version, and JUnit XML beside it', async () => {
    const jsonPath = join(directory, 'report.json');
    const junitPath = join(directory, 'junit.xml');
    const captured = captureIo();
    const before = Date.now();
    expect(await runConformanceCli([referenceEntry, '--only', 'scope.isolation.companyId', '--json', jsonPath, '--junit', junitPath], captured.io)).toBe(0);
    const report = JSON.parse(await readFile(jsonPath, 'utf8')) as ConformanceReport;
    expect(report.suiteVersion).toBe(VERSION);
    expect(report.nodeVersion).toBe(process.version);
    expect(Date.parse(report.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(report.adapter?.key).toBe('memory');
    expect(report.adapter?.capabilities.correction).toBe(true);
    const junit = await readFile(junitPath, 'utf8');
    expect(junit).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="memplane conformance" tests="\d+" failures="0"/);
    expect(junit.match(/<testcase /g)).toHaveLength(report.results.length);
    expect(junit).toContain('<testcase classname="scope" name="scope.isolation.companyId.query"');
    expect(junit).toContain('<property name="adapter.key" value="memory"/>');
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

  it('prints its version and exits 0 for --version, and exits 2 for a missing module', async () => {
    const version = await spawnCli(['--version']);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const missing = await spawnCli([join(directory, 'absent.ts')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^memplane-conformance: MemoryConfigurationError \(MEMORY_CONFIGURATION\): Conformance module not found/);
  }, 120_000);
});
