import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServeCommand } from './serve-command';

// A provider package memplane serve has never heard of: bound through --config, with no change to the server.
const config = {
  providers: ['@memplane-fixtures/notebook-provider'],
  secretEnvironment: { acme: ['NOTEBOOK_CURSOR_SECRET'] },
  companies: { acme: { bindings: [{ key: 'notes', providerId: 'notebook', config: { notebook: 'acme-notes', cursorSecret: { $secret: { env: 'NOTEBOOK_CURSOR_SECRET' } } } }], default: 'notes' } },
};

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memplane-serve-provider-package-'));
  process.env.NOTEBOOK_CURSOR_SECRET = 'a notebook cursor secret of the test';
});
afterAll(async () => {
  delete process.env.NOTEBOOK_CURSOR_SECRET;
  await rm(folder, { recursive: true, force: true });
});

/** Runs `memplane serve` with these arguments until `work` is done with its URL; resolves to its exit code and standard error. */
async function serving(argv: string[], work: (url: string) => Promise<void>): Promise<{ code: number; stderr: string }> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
  let failure: unknown;
  let stderr = '';
  const command = createServeCommand({
    stopped,
    listening: (url) => void work(url).catch((error: unknown) => (failure = error)).finally(stop),
  });
  const code = await command.run(argv, { stdout: () => undefined, stderr: (text) => void (stderr += text) });
  if (failure !== undefined) throw failure;
  return { code, stderr };
}

describe('memplane serve --config with a provider package it has never heard of', () => {
  it('loads the package by name, applies its binding, and serves records and queries through it', async () => {
    const data = join(folder, 'data');
    const file = join(folder, 'config.json');
    await writeFile(file, JSON.stringify(config));
    const issued: string[] = [];
    expect(await createServeCommand().run(['token', 'issue', '--agent', 'planner', '--company', 'acme', '--data-dir', data], { stdout: (text) => void issued.push(text), stderr: () => undefined })).toBe(0);
    const token = issued.join('').trim();
    const admin: string[] = [];
    expect(await createServeCommand().run(['token', 'issue', '--admin', '--company', 'acme', '--data-dir', data], { stdout: (text) => void admin.push(text), stderr: () => undefined })).toBe(0);

    const { code } = await serving(['--port', '0', '--no-inspector', '--data-dir', data, '--config', file], async (url) => {
      const call = async (method: string, path: string, bearer: string, body?: unknown) => {
        const response = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        return { status: response.status, body: (await response.json()) as any };
      };
      const written = await call('POST', '/v1/companies/acme/memory/records', token, { records: [{ text: 'The launch moved to Thursday.' }] });
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      const found = await call('POST', '/v1/companies/acme/memory/query', token, { query: 'when is the launch?' });
      expect(found.status).toBe(200);
      expect(JSON.stringify(found.body)).toContain('The launch moved to Thursday.');
      const bindings = await call('GET', '/v1/companies/acme/control/bindings', admin.join('').trim());
      expect(bindings.body.items).toEqual([expect.objectContaining({ key: 'notes', providerId: 'notebook' })]);
      // The binding keeps the reference, never the secret's value.
      expect(JSON.stringify(bindings.body)).not.toContain(process.env.NOTEBOOK_CURSOR_SECRET);
      const described = await call('GET', '/v1/companies/acme/control/providers/notebook', admin.join('').trim());
      expect(described.body).toMatchObject({ providerId: 'notebook', origin: 'configured' });
    });
    expect(code).toBe(0);
  });

  it('refuses a config that is not valid before anything is opened: exit 2, the field named, no data folder', async () => {
    const data = join(folder, 'never-created');
    const file = join(folder, 'bad-config.json');
    for (const bad of [{ providers: ['./notebook'] }, { providers: ['@memplane-fixtures/notebook-provider/provider'] }, { companies: { acme: { bindings: [{ key: 'x', providerId: 'notebook', apiKey: 'sk-live' }] } } }, { provider: [] }]) {
      await writeFile(file, JSON.stringify(bad));
      let stderr = '';
      const code = await createServeCommand().run(['--port', '0', '--no-inspector', '--data-dir', data, '--config', file], { stdout: () => undefined, stderr: (text) => void (stderr += text) });
      expect(code, JSON.stringify(bad)).toBe(2);
      expect(stderr, JSON.stringify(bad)).toMatch(/^memplane serve: .*(providers\.0|companies\.acme\.bindings\.0|provider)/);
      await expect(readdir(data)).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('names a provider package that is not installed, and creates nothing', async () => {
    const data = join(folder, 'missing-package');
    const file = join(folder, 'missing-config.json');
    await writeFile(file, JSON.stringify({ providers: ['@memplane-test/not-installed-provider'] }));
    let stderr = '';
    const code = await createServeCommand().run(['--port', '0', '--no-inspector', '--data-dir', data, '--config', file], { stdout: () => undefined, stderr: (text) => void (stderr += text) });
    expect(code).toBe(2);
    expect(stderr).toContain('@memplane-test/not-installed-provider');
    await expect(readdir(data)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
