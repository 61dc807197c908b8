import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allRules } from '@memplane/conformance/runner';
import { describe, expect, it } from 'vitest';
import { brokenVariants } from '../../../conformance/src/__fixtures__/broken-adapters/index';
import { lazyCommand } from './commands/lazy-command';
import type { MemplaneCommand } from './memplane-command';
import { runMemplaneCli } from './run-memplane-cli';

const referenceEntry = fileURLToPath(new URL('../../../adapters/memory/conformance-entry.ts', import.meta.url));
const notAnAdapterModule = fileURLToPath(new URL('../../../conformance/src/__fixtures__/modules/default-export.ts', import.meta.url));
const brokenEntry = fileURLToPath(
  new URL('../../../conformance/src/__fixtures__/broken-adapters/cli-broken-module.ts', import.meta.url),
);

function captureOutput() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    output: { stdout: (text: string) => stdout.push(text), stderr: (text: string) => stderr.push(text) },
    stdout: () => stdout.join(''),
    stderr: () => stderr.join(''),
  };
}

describe('runMemplaneCli', () => {
  it('lists the commands on --help and exits 0', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli(['--help'], captured.output)).toBe(0);
    expect(captured.stdout()).toMatch(/^Usage: memplane \[options\] \[command\]/);
    for (const name of ['conformance', 'markdown', 'serve', 'help']) expect(captured.stdout()).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
  });

  it('exits 2 with the help on stderr when no command is given', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli([], captured.output)).toBe(2);
    expect(captured.stderr()).toContain('Usage: memplane [options] [command]');
    expect(captured.stdout()).toBe('');
  });

  it('exits 2 on an unknown command or option and says which, naming memplane', async () => {
    for (const [argv, message] of [[['teleport'], "memplane: error: unknown command 'teleport'"], [['--nope'], "memplane: error: unknown option '--nope'"], [['help', 'teleport'], "memplane: unknown command 'teleport'"]] as const) {
      const captured = captureOutput();
      expect(await runMemplaneCli([...argv], captured.output)).toBe(2);
      expect(captured.stderr()).toContain(message);
    }
  });

  it('prints the version for --version and -v, and each command its own', async () => {
    for (const argv of [['--version'], ['-v'], ['conformance', '--version'], ['markdown', '--version']]) {
      const captured = captureOutput();
      expect(await runMemplaneCli(argv, captured.output)).toBe(0);
      expect(captured.stdout()).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    }
  });

  it('prints the full usage of a command for <command> --help and help <command>', async () => {
    for (const argv of [['conformance', '--help'], ['help', 'conformance']]) {
      const captured = captureOutput();
      expect(await runMemplaneCli(argv, captured.output)).toBe(0);
      for (const text of ['Usage: memplane conformance [options] <module>', '--export <name>', '--json <path>', '--junit <path>', '--only <prefix>', 'Exit codes:']) {
        expect(captured.stdout()).toContain(text);
      }
    }
    for (const argv of [['markdown', '--help'], ['help', 'markdown']]) {
      const captured = captureOutput();
      expect(await runMemplaneCli(argv, captured.output)).toBe(0);
      for (const subcommand of ['reindex', 'stats', 'query', 'list', 'get', 'import']) expect(captured.stdout()).toContain(`  ${subcommand} `);
      expect(captured.stdout()).toContain('Exit codes: 0 done, 1 the work failed');
    }
  });

  it('names the command that was run in its messages: memplane conformance, memplane markdown', async () => {
    const conformance = captureOutput();
    expect(await runMemplaneCli(['conformance', '--nope'], conformance.output)).toBe(2);
    expect(conformance.stderr()).toMatch(/^memplane conformance: error: unknown option '--nope'/);
    expect(conformance.stderr()).toContain('Run `memplane conformance --help` for the usage.');
    expect(conformance.stderr()).not.toContain('memplane-conformance');
    const markdown = captureOutput();
    expect(await runMemplaneCli(['markdown', 'stats'], markdown.output)).toBe(2);
    expect(markdown.stderr()).toMatch(/^memplane markdown: error: required option '--root <dir>' not specified/);
  });

  it('exits 2 with one error for a module whose export is not an adapter, before any rule runs', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli(['conformance', notAnAdapterModule], captured.output)).toBe(2);
    expect(captured.stderr()).toMatch(/^memplane conformance: MemoryConfigurationError \(MEMORY_CONFIGURATION\): createAdapter\(\) returned .*which is not a MemoryAdapter/);
    expect(captured.stderr().trimEnd().split('\n')).toHaveLength(1);
    expect(captured.stdout()).toBe('');
  });

  it('never creates state on a read-only command: memplane markdown stats --root ./typo exits 2', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'memplane-cli-typo-'));
    try {
      const captured = captureOutput();
      expect(await runMemplaneCli(['markdown', 'stats', '--root', join(parent, 'typo')], captured.output)).toBe(2);
      expect(captured.stderr()).toContain('does not exist');
      expect(existsSync(join(parent, 'typo'))).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('runs contributed commands with the remaining arguments', async () => {
    const seen: string[][] = [];
    const echo: MemplaneCommand = {
      name: 'echo',
      summary: 'Echo.',
      usage: 'memplane echo [words]',
      run: async (argv) => {
        seen.push(argv);
        return 0;
      },
    };
    expect(await runMemplaneCli(['echo', 'a', 'b'], captureOutput().output, [echo])).toBe(0);
    expect(seen).toEqual([['a', 'b']]);
    // --help, --version and options after the command name are the command's own.
    expect(await runMemplaneCli(['echo', '--version', '-h', '--root', 'x', 'echo'], captureOutput().output, [echo])).toBe(0);
    expect(seen.at(-1)).toEqual(['--version', '-h', '--root', 'x', 'echo']);
  });

  it('runs the whole conformance suite over the reference adapter and passes', async () => {
    const captured = captureOutput();
    const exitCode = await runMemplaneCli(['conformance', referenceEntry], captured.output);
    const lines = captured.stdout().trimEnd().split('\n');
    expect(captured.stderr()).toBe('');
    expect(lines.at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect(exitCode).toBe(0);
  }, 60_000);

  it('exits 1 on a broken adapter and names the failing rules', async () => {
    const captured = captureOutput();
    const exitCode = await runMemplaneCli(['conformance', brokenEntry, '--only', 'scope'], captured.output);
    expect(captured.stdout()).toMatch(/^FAIL {2}scope\./m);
    expect(captured.stdout().trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
    expect(exitCode).toBe(1);
  }, 60_000);
});

describe('commands of optional packages', () => {
  it('lists markdown on --help without loading it, and no demo (the demo is `npm run demo` in the repository)', async () => {
    const captured = captureOutput();
    await runMemplaneCli(['--help'], captured.output);
    expect(captured.stdout()).toMatch(/^ {2}markdown {2}/m);
    expect(captured.stdout()).not.toMatch(/^ {2}demo\b/m);
  });

  it('says which package to install when a command package is missing', async () => {
    const missing = lazyCommand({
      name: 'absent',
      summary: 'A command whose package is not installed.',
      usage: 'memplane absent',
      packageName: '@memplane/absent',
      load: async () => (await import('@memplane/absent-package-for-test' as string)) as never,
    });
    const captured = captureOutput();
    expect(await runMemplaneCli(['absent'], captured.output, [missing])).toBe(2);
    expect(captured.stderr()).toContain('npm install @memplane/absent');
    const help = captureOutput();
    expect(await runMemplaneCli(['absent', '--help'], help.output, [missing])).toBe(0);
    expect(help.stdout()).toBe('Usage: memplane absent\n\nA command whose package is not installed.\nThe full usage comes with @memplane/absent: npm install @memplane/absent\n');
  });

  it('runs memplane markdown stats over an empty root', async () => {
    const root = mkdtempSync(join(tmpdir(), 'memplane-cli-markdown-'));
    // A read-only command refuses a folder that is not a memory root; `companies/` makes it one.
    mkdirSync(join(root, 'companies'));
    try {
      const captured = captureOutput();
      const exitCode = await runMemplaneCli(['markdown', 'stats', '--root', root], captured.output);
      expect(captured.stderr()).not.toContain('npm install');
      expect(exitCode).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('memplane conformance over every broken variant', () => {
  const variantsModule = fileURLToPath(new URL('./__fixtures__/broken-variant-modules.ts', import.meta.url));
  const exportName = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

  it.each(brokenVariants.map((variant) => [variant.name, variant] as const))(
    'exits 1 on %s and names the rules that catch it',
    async (_name, variant) => {
      const captured = captureOutput();
      const exitCode = await runMemplaneCli(
        ['conformance', variantsModule, '--export', exportName(variant.name), '--only', variant.family],
        captured.output,
      );
      const failed = captured
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('FAIL'))
        .map((line) => line.slice(6).split(':')[0]);
      expect(failed).toEqual(expect.arrayContaining(variant.mustFail));
      expect(exitCode).toBe(1);
    },
    60_000,
  );

  it.each([
    ['dropsSummary', 'provenance.summary.get', 'store-records-whole'],
    ['dropsRecordBetweenPages', 'pagination.walk-while-changing', 'keyset-cursors'],
  ])('%s: prints under the FAIL line of %s the rule\'s description and a fix hint linking #%s of the adapter guide', async (exportName, ruleId, section) => {
    const captured = captureOutput();
    const exitCode = await runMemplaneCli(['conformance', variantsModule, '--export', exportName, '--only', ruleId], captured.output);
    const description = allRules.find((rule) => rule.id === ruleId)?.description ?? '';
    const lines = captured.stdout().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^FAIL {2}${ruleId.replace(/\./g, '\\.')}: Expected \\S`));
    expect(lines[1]).toBe(`      Checks: ${description}`);
    expect(lines[2]).toMatch(new RegExp(`^ {6}Fix: [A-Z].+ See https://github\\.com/memplane/memplane/blob/main/docs/writing-an-adapter\\.md#${section}$`));
    expect(lines[3]).toBe('0 passed, 1 failed, 0 skipped');
    expect(exitCode).toBe(1);
  }, 60_000);

  it('passes the adapter template over its fake API', async () => {
    const captured = captureOutput();
    const templateEntry = fileURLToPath(new URL('../../../adapters/_template/conformance-entry.ts', import.meta.url));
    const exitCode = await runMemplaneCli(['conformance', templateEntry], captured.output);
    expect(captured.stdout().trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    expect(exitCode).toBe(0);
  }, 60_000);
});

describe('the memplane bin (spawned)', () => {
  const bin = fileURLToPath(new URL('./memplane.ts', import.meta.url));
  const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.workspace-sources.json', import.meta.url));

  function spawnMemplane(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    return new Promise((resolve) => {
      execFile(process.execPath, [tsxCli, '--tsconfig', tsconfig, bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  it('exits 0 with the version, 0 with the full usage of conformance, and 2 for a usage error', async () => {
    expect(await spawnMemplane(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\S*\n$/), stderr: '' });
    const help = await spawnMemplane(['conformance', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--junit <path>');
    const usage = await spawnMemplane(['conformance']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^memplane conformance: error: missing required argument 'module'/);
  }, 60_000);
});
