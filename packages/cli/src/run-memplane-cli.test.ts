import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenVariants } from '../../../conformance/src/__fixtures__/broken-adapters/index';
import { lazyCommand } from './commands/lazy-command';
import type { MemplaneCommand } from './memplane-command';
import { runMemplaneCli } from './run-memplane-cli';

const referenceEntry = fileURLToPath(new URL('../../../adapters/memory/conformance-entry.ts', import.meta.url));
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
    expect(captured.stdout()).toContain('conformance');
  });

  it('exits 2 with the help text when no command is given', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli([], captured.output)).toBe(2);
    expect(captured.stdout()).toContain('Usage: memplane <command>');
  });

  it('exits 2 on an unknown command and says which', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli(['teleport'], captured.output)).toBe(2);
    expect(captured.stderr()).toContain('Unknown command: teleport');
  });

  it('prints the usage of a command on <command> --help', async () => {
    const captured = captureOutput();
    expect(await runMemplaneCli(['conformance', '--help'], captured.output)).toBe(0);
    expect(captured.stdout()).toContain('memplane conformance <module>');
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
  it('lists markdown and demo on --help without loading them', async () => {
    const captured = captureOutput();
    await runMemplaneCli(['--help'], captured.output);
    expect(captured.stdout()).toMatch(/^ {2}markdown {2}/m);
    expect(captured.stdout()).toMatch(/^ {2}demo {6}/m);
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
  });

  it('runs memplane markdown stats over an empty root', async () => {
    const root = mkdtempSync(join(tmpdir(), 'memplane-cli-markdown-'));
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

  it('passes the adapter template over its fake API', async () => {
    const captured = captureOutput();
    const templateEntry = fileURLToPath(new URL('../../../adapters/_template/conformance-entry.ts', import.meta.url));
    const exitCode = await runMemplaneCli(['conformance', templateEntry], captured.output);
    expect(captured.stdout().trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
    expect(exitCode).toBe(0);
  }, 60_000);
});
