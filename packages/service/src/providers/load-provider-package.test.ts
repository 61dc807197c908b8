import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryMissingPackageError } from '../errors/memory-missing-package-error';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { actors, as, deterministicSettings } from '../test-support/service-test-support';
import { loadProviderPackage } from './load-provider-package';

const fixturePackage = '@memplane-fixtures/notebook-provider';

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(() => undefined, (error: unknown) => error);
}

/** A module the way `import()` gives it, answering the one specifier. */
const moduleFor = (specifier: string, module: unknown) => async (asked: string) => {
  if (asked !== specifier) throw new TypeError(`asked for ${asked}`);
  return module;
};

describe('loadProviderPackage', () => {
  let service: MemoryService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('binds a provider package the service has never heard of, loaded by name: capture and query go through it', async () => {
    const notebook = await loadProviderPackage(fixturePackage);
    expect(notebook).toMatchObject({ providerId: 'notebook', packageName: fixturePackage });
    expect(Object.isFrozen(notebook)).toBe(true);
    service = await createMemoryService({ ...deterministicSettings(), providers: [notebook] });
    expect(service.providers.list()).toEqual([{ providerId: 'notebook', origin: 'configured', description: notebook.description }]);
    const admin = service.control(as(actors.acmeAdmin));
    const binding = await admin.createBinding({ key: 'notes', providerId: 'notebook', config: { notebook: 'acme-notes' }, hooks: { postRunCapture: true } });
    expect(binding.capabilities).toMatchObject({ metadataFilter: true });
    await admin.setTarget({ targetType: 'company' }, 'notes');

    const planner = service.runtime(as(actors.planner));
    const captured = await planner.capture({ source: { kind: 'manual_note' }, payload: { text: 'Deploys happen on Tuesdays after the standup.' }, mode: 'capture_record' });
    expect(captured).toMatchObject({ bindingKey: 'notes', providerId: 'notebook' });
    await service.hooks.postRunCapture(as(actors.heartbeat, { companyId: 'acme' }), { agentId: 'planner', heartbeatRunId: 'run-1', output: { text: 'The staging database moved to eu-west-1.' } });
    const found = await planner.query({ query: 'when do deploys happen?' });
    expect(found.snippets.map((snippet) => snippet.text)).toEqual(['Deploys happen on Tuesdays after the standup.']);
    expect((await planner.list()).items.map((item) => item.text).sort()).toEqual(['Deploys happen on Tuesdays after the standup.', 'The staging database moved to eu-west-1.']);
    // Another company sees none of it, through the same provider.
    await service.control(as(actors.globexAdmin)).createBinding({ key: 'notes', providerId: 'notebook', config: { notebook: 'acme-notes' } });
    await service.control(as(actors.globexAdmin)).setTarget({ targetType: 'company' }, 'notes');
    expect((await service.runtime(as(actors.scout)).query({ query: 'deploys' })).snippets).toEqual([]);
    const operations = (await service.explorer(as(actors.acmeAdmin)).listOperations()).items;
    expect(operations.map((entry) => entry.operation)).toEqual(expect.arrayContaining(['capture', 'query', 'list']));
  });

  it('refuses a plain secret in a binding of the loaded provider, as its description declares', async () => {
    service = await createMemoryService({ ...deterministicSettings(), providers: [await loadProviderPackage(fixturePackage)] });
    await expect(service.control(as(actors.acmeAdmin)).createBinding({ key: 'notes', providerId: 'notebook', config: { cursorSecret: 'a-plain-cursor-secret-value' } })).rejects.toMatchObject({
      code: 'MEMORY_VALIDATION',
      field: 'config.cursorSecret',
    });
  });

  it('names the package that is not installed, without importing anything else', async () => {
    const failure = await failureOf(loadProviderPackage('@memplane-test/not-installed-provider'));
    expect(MemoryMissingPackageError.isInstance(failure)).toBe(true);
    expect(MemoryConfigurationError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'MEMORY_CONFIGURATION', packageName: '@memplane-test/not-installed-provider' });
    expect((failure as Error).message).toContain('npm install @memplane-test/not-installed-provider');
    // As Node says it, naming the package rather than the subpath.
    const asNode = Object.assign(new Error("Cannot find package '@acme/kb' imported from /srv/app/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadProviderPackage('@acme/kb', { load: () => Promise.reject(asNode) })).rejects.toMatchObject({ packageName: '@acme/kb', cause: asNode });
  });

  it('says a package is installed but describes no provider: no ./provider entry point, or no valid description', async () => {
    const noSubpath = await failureOf(loadProviderPackage('zod'));
    expect(MemoryConfigurationError.isInstance(noSubpath)).toBe(true);
    expect(MemoryMissingPackageError.isInstance(noSubpath)).toBe(false);
    const notExported = Object.assign(new Error("Package subpath './provider' is not defined by \"exports\""), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    await expect(loadProviderPackage('@acme/kb', { load: () => Promise.reject(notExported) })).rejects.toThrow('@acme/kb is installed but has no @acme/kb/provider entry point');
    const brokenInside = Object.assign(new Error("Cannot find module '/srv/app/node_modules/@acme/kb/dist/provider.js'"), { code: 'ERR_MODULE_NOT_FOUND' });
    const inside = await failureOf(loadProviderPackage('@acme/kb', { load: () => Promise.reject(brokenInside) }));
    expect(MemoryConfigurationError.isInstance(inside) && !MemoryMissingPackageError.isInstance(inside)).toBe(true);

    await expect(loadProviderPackage('@acme/kb', { load: moduleFor('@acme/kb/provider', { something: 1 }) })).rejects.toThrow('exports no provider description');
    const invalid = await failureOf(loadProviderPackage('@acme/kb', { load: moduleFor('@acme/kb/provider', { provider: { providerId: 'Acme KB', description: 'x', create: () => undefined } }) }));
    expect(MemoryConfigurationError.isInstance(invalid)).toBe(true);
    expect((invalid as Error).message).toContain('providerId');
    expect((invalid as Error).cause).toSatisfy(MemoryValidationError.isInstance);
  });

  it('takes `provider`, else the default export, of an ES module or of CommonJS through interop', async () => {
    const definition = { providerId: 'acme-kb', description: 'Acme knowledge base.', create: () => undefined as never };
    for (const module of [{ provider: definition }, { default: definition }, { default: { provider: definition } }]) {
      await expect(loadProviderPackage('@acme/kb', { load: moduleFor('@acme/kb/provider', module) })).resolves.toMatchObject({ providerId: 'acme-kb' });
    }
  });

  it('refuses a name that is a path or a URL before importing anything', async () => {
    let imported = false;
    const load = async () => {
      imported = true;
      return {};
    };
    for (const name of ['../evil', '/etc/passwd', './local', 'file:///tmp/x', 'https://evil.example/x.js', '', 'Acme', '@acme/kb/extra']) {
      await expect(loadProviderPackage(name, { load }), name).rejects.toMatchObject({ code: 'MEMORY_VALIDATION', field: 'packageName' });
    }
    expect(imported).toBe(false);
  });
});
