import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryValidationError } from '@memplane/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, deterministicSettings, testProviders } from '../test-support/service-test-support';

describe('markdown roots', () => {
  let dataDirectory: string;
  let elsewhere: string;
  const services: MemoryService[] = [];
  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-roots-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'memplane-elsewhere-'));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });
  async function start(): Promise<MemoryService> {
    const service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename: join(dataDirectory, 'service.db') }),
      dataDirectory,
      providers: testProviders,
      ...deterministicSettings(),
    });
    services.push(service);
    return service;
  }
  const acmeFolder = () => join(dataDirectory, 'markdown', 'acme');
  const globexFolder = () => join(dataDirectory, 'markdown', 'globex');

  it('keeps every root inside the company folder: no `..`, no absolute path elsewhere, no symbolic link out', async () => {
    const service = await start();
    // Globex has files; acme's admin wants them.
    const globex = service.control(as(actors.globexAdmin));
    await globex.createBinding({ key: 'default', providerId: 'markdown' });
    await globex.setTarget({ targetType: 'company' }, 'default');
    await service.runtime(as(actors.scout)).upsertRecords({ records: [{ text: 'Globex pricing is secret.' }] });
    mkdirSync(acmeFolder(), { recursive: true });
    symlinkSync(globexFolder(), join(acmeFolder(), 'linked'));
    symlinkSync(elsewhere, join(acmeFolder(), 'outside'));
    mkdirSync(join(acmeFolder(), 'real'), { recursive: true });
    symlinkSync(join(globexFolder()), join(acmeFolder(), 'real', 'deeper'));
    symlinkSync(join(elsewhere, 'missing'), join(acmeFolder(), 'dangling'));
    const admin = service.control(as(actors.acmeAdmin));
    const roots = [
      '../globex',
      '../../markdown/globex',
      'notes/../../globex/bnd',
      globexFolder(),
      elsewhere,
      dataDirectory,
      join(dataDirectory, 'markdown'),
      'linked',
      'linked/notes',
      'outside',
      'real/deeper/notes',
      'dangling',
      'dangling/below',
    ];
    for (const [index, root] of roots.entries()) {
      const error = await admin.createBinding({ key: `escape-${index}`, providerId: 'markdown', config: { root } }).then(() => undefined, (thrown: unknown) => thrown);
      expect(MemoryValidationError.isInstance(error), `root ${root}`).toBe(true);
      expect(error).toMatchObject({ field: 'config.root' });
    }
    expect(await admin.listBindings()).toEqual([]);
    // Inside is fine, relative or absolute.
    await expect(admin.createBinding({ key: 'notes', providerId: 'markdown', config: { root: 'notes' } })).resolves.toMatchObject({ key: 'notes' });
    await expect(admin.createBinding({ key: 'team', providerId: 'markdown', config: { root: join(acmeFolder(), 'team') } })).resolves.toMatchObject({ key: 'team' });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('checks again when the adapter is built: a folder swapped for a link after the binding was saved is refused', async () => {
    const first = await start();
    const admin = first.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'notes', providerId: 'markdown', config: { root: 'notes' } });
    await admin.setTarget({ targetType: 'company' }, 'notes');
    await first.close();
    services.splice(0);
    rmSync(join(acmeFolder(), 'notes'), { recursive: true, force: true });
    symlinkSync(elsewhere, join(acmeFolder(), 'notes'));
    const second = await start();
    const error = await second.runtime(as(actors.planner)).upsertRecords({ records: [{ text: 'Acme note.' }] }).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'MEMORY_VALIDATION', field: 'config.root' });
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(elsewhere, 'index'))).toBe(false);
  });
});
