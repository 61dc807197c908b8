import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCreateMemplaneAdapter, usage, type CliEnvironment } from './run-cli';

let workspace: string;
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'create-memplane-adapter-cli-'));
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function createEnvironment(options: { interactive?: boolean; answer?: string } = {}) {
  const stdin = new PassThrough();
  if (options.answer !== undefined) stdin.end(`${options.answer}\n`);
  const output = { stdout: '', stderr: '' };
  const environment: CliEnvironment = {
    stdin,
    stdout: { write: (text: string) => (output.stdout += text) },
    stderr: { write: (text: string) => (output.stderr += text) },
    interactive: options.interactive ?? false,
    cwd: workspace,
  };
  return { environment, output };
}

describe('create-memplane-adapter', () => {
  it('scaffolds the named adapter and prints the next steps', async () => {
    const directory = join(workspace, 'named');
    const { environment, output } = createEnvironment();
    const code = await runCreateMemplaneAdapter(
      ['acme-memory', '--directory', directory, '--package-name', '@acme/memory-adapter'],
      environment,
    );
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'))).toMatchObject({
      name: '@acme/memory-adapter',
      version: '0.1.0',
    });
    expect(output.stdout).toContain('Created @acme/memory-adapter');
    expect(output.stdout).toContain('cd named\n  npm install\n  npm test');
    expect(output.stdout).toContain('src/acme-memory-client.ts');
    expect(output.stderr).toBe('');
  });

  it('writes to memplane-adapter-<name> below the working directory by default', async () => {
    const { environment } = createEnvironment();
    expect(await runCreateMemplaneAdapter(['default-place'], environment)).toBe(0);
    expect(existsSync(join(workspace, 'memplane-adapter-default-place', 'src', 'default-place-adapter.ts'))).toBe(true);
  });

  it('asks for the name when a person is at the terminal', async () => {
    const directory = join(workspace, 'asked');
    const { environment, output } = createEnvironment({ interactive: true, answer: 'zep-cloud' });
    expect(await runCreateMemplaneAdapter(['-d', directory], environment)).toBe(0);
    expect(output.stdout).toContain('Provider id (kebab-case, such as acme-memory): ');
    expect(existsSync(join(directory, 'src', 'zep-cloud-adapter.ts'))).toBe(true);
  });

  it('exits 2 with the usage when the name is missing and asking is not allowed', async () => {
    for (const [argv, interactive] of [
      [['--no-interactive'], true],
      [[], false],
    ] as const) {
      const { environment, output } = createEnvironment({ interactive });
      expect(await runCreateMemplaneAdapter([...argv], environment)).toBe(2);
      expect(output.stderr).toBe(`Missing the provider id.\n\n${usage}`);
    }
  });

  it('exits 2 for an invalid name or package name, an unknown option or two names, writing nothing', async () => {
    const cases = [['Acme_Memory'], ['acme', '--colour'], ['acme', 'zep'], ['acme', '--package-name', 'Not Valid']];
    for (const argv of cases) {
      const { environment, output } = createEnvironment();
      expect(await runCreateMemplaneAdapter(argv, environment)).toBe(2);
      expect(output.stderr).toContain('Usage: create-memplane-adapter');
      expect(output.stdout).toBe('');
    }
    expect(existsSync(join(workspace, 'memplane-adapter-acme'))).toBe(false);
  });

  it('exits 1 and says how to force when the directory is not empty', async () => {
    const directory = join(workspace, 'busy');
    mkdirSync(directory);
    writeFileSync(join(directory, 'keep.txt'), 'mine');
    const { environment, output } = createEnvironment();
    expect(await runCreateMemplaneAdapter(['acme', '-d', directory], environment)).toBe(1);
    expect(output.stderr).toMatch(/directory: is not empty .*pass force/);
    expect(await runCreateMemplaneAdapter(['acme', '-d', directory, '--force'], createEnvironment().environment)).toBe(
      0,
    );
    expect(readFileSync(join(directory, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('prints the usage for --help', async () => {
    const { environment, output } = createEnvironment();
    expect(await runCreateMemplaneAdapter(['--help'], environment)).toBe(0);
    expect(output.stdout).toBe(usage);
  });
});
