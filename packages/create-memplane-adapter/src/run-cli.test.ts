import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCreateMemplaneAdapter, usage, type CliEnvironment } from './run-cli';
import { VERSION } from './version';

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

  it('scaffolds the minimal local adapter with --minimal and prints its next steps', async () => {
    const directory = join(workspace, 'minimal');
    const { environment, output } = createEnvironment();
    expect(await runCreateMemplaneAdapter(['acme-local', '--minimal', '-d', directory], environment)).toBe(0);
    expect(existsSync(join(directory, 'src', 'acme-local-adapter.ts'))).toBe(true);
    expect(existsSync(join(directory, 'src', 'acme-local-client.ts'))).toBe(false);
    expect(output.stdout).toContain('Created memplane-adapter-acme-local');
    expect(output.stdout).toContain('cd minimal\n  npm install\n  npm test');
    expect(output.stdout).toContain('the in-memory store of src/acme-local-adapter.ts');
    expect(output.stdout).not.toContain('fake-server');
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
      expect(output.stderr).toBe('create-memplane-adapter: missing the provider id.\nRun `create-memplane-adapter --help` for the usage.\n');
    }
  });

  it('exits 2 for an invalid name or package name, an unknown option or two names, writing nothing', async () => {
    const cases = [['Acme_Memory'], ['acme', '--colour'], ['acme', 'zep'], ['acme', '--package-name', 'Not Valid']];
    for (const argv of cases) {
      const { environment, output } = createEnvironment();
      expect(await runCreateMemplaneAdapter(argv, environment)).toBe(2);
      expect(output.stderr).toMatch(/^create-memplane-adapter: /);
      expect(output.stderr).toContain('Run `create-memplane-adapter --help` for the usage.');
      expect(output.stdout).toBe('');
    }
    expect(existsSync(join(workspace, 'memplane-adapter-acme'))).toBe(false);
  });

  it('exits 2, writing nothing, and says how to force when the directory is not empty', async () => {
    const directory = join(workspace, 'busy');
    mkdirSync(directory);
    writeFileSync(join(directory, 'keep.txt'), 'mine');
    const { environment, output } = createEnvironment();
    expect(await runCreateMemplaneAdapter(['acme', '-d', directory], environment)).toBe(2);
    expect(output.stderr).toMatch(/directory: is not empty .*pass force/);
    expect(existsSync(join(directory, 'package.json'))).toBe(false);
    expect(await runCreateMemplaneAdapter(['acme', '-d', directory, '--force'], createEnvironment().environment)).toBe(
      0,
    );
    expect(readFileSync(join(directory, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('prints the full usage for --help and -h', async () => {
    for (const flag of ['--help', '-h']) {
      const { environment, output } = createEnvironment();
      expect(await runCreateMemplaneAdapter([flag], environment)).toBe(0);
      expect(output.stdout).toBe(usage());
      for (const text of ['Usage: create-memplane-adapter [options] [name]', '-d, --directory <dir>', '--package-name <name>', '--no-interactive', '-f, --force', '--minimal', '-v, --version', 'Exit codes: 0']) {
        expect(output.stdout).toContain(text);
      }
    }
  });

  it('prints the version for --version and -v, and exits 0', async () => {
    for (const flag of ['--version', '-v']) {
      const { environment, output } = createEnvironment();
      expect(await runCreateMemplaneAdapter([flag], environment)).toBe(0);
      expect(output.stdout).toBe(`${VERSION}\n`);
      expect(output.stderr).toBe('');
    }
  });
});

describe('the create-memplane-adapter bin (spawned)', () => {
  function spawnBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
    const bin = fileURLToPath(new URL('./cli.ts', import.meta.url));
    return new Promise((resolve) => {
      execFile(process.execPath, [tsxCli, bin, ...args], { cwd: workspace, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      });
    });
  }

  it('exits 0 with the version, and 2 with one message for an unknown option', async () => {
    expect(await spawnBin(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    const unknown = await spawnBin(['acme', '--colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^create-memplane-adapter: error: unknown option '--colour'/);
  }, 60_000);
});
