import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHarness } from '@paperclipai/plugin-sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemplanePaperclipPlugin } from './memplane-paperclip-plugin';
import { companylessConfigRefusal, hostCompanyConfig } from './test-support/host-company-config';
import { company, workerTestManifest } from './test-support/paperclip-fixtures';
import { startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';
import { filesUnder } from './test-support/files-under';

const markdown = { bindings: [{ key: 'default', providerId: 'markdown' }], default: 'default' };
const run = (companyId: string, runId: string) => ({ companyId, agentId: 'planner', runId, projectId: `${companyId}-project` });

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function started(...args: Parameters<typeof startWorker>): Promise<StartedWorker> {
  const worker = await startWorker(...args);
  cleanup.push(() => worker.stop());
  return worker;
}

async function folder(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'memplane-paperclip-company-'));
  cleanup.push(() => rm(path, { recursive: true, force: true }));
  return path;
}


describe('config is per company, as Paperclip stores it', () => {
  it('the harness refuses a company-less config read like the host, and setup never makes one', async () => {
    const harness = createTestHarness({ manifest: workerTestManifest });
    const host = hostCompanyConfig(harness, { acme: markdown });
    await expect(harness.ctx.config.get()).rejects.toThrow(companylessConfigRefusal);
    host.reads.splice(0);
    const plugin = createMemplanePaperclipPlugin({ dataDirectory: await folder() });
    cleanup.push(async () => plugin.definition.onShutdown?.());
    await plugin.definition.setup(harness.ctx);
    expect(host.reads).toEqual([]);
    // Health before any company asked for memory reads nothing either.
    expect(await plugin.definition.onHealth?.()).toMatchObject({ status: 'ok' });
    expect(host.reads).toEqual([]);
    harness.seed({ companies: [company('acme')] });
    expect((await harness.executeTool('memory_search', { query: 'deploys' }, run('acme', 'r1'))).error).toBeUndefined();
    expect(host.reads).toEqual(['acme']);
    // The second call uses the cached config.
    await harness.executeTool('memory_search', { query: 'deploys' }, run('acme', 'r2'));
    expect(host.reads).toEqual(['acme']);
  });

  it('two companies with different data folders get different services and never see each other, and a third naming the same folder shares one', async () => {
    const [acmeFolder, globexFolder] = [await folder(), await folder()];
    const worker = await started({ acme: { ...markdown, storage: { dataDirectory: acmeFolder } }, globex: { ...markdown, storage: { dataDirectory: globexFolder } }, initech: { ...markdown, storage: { dataDirectory: acmeFolder } } });
    const { harness, plugin } = worker;
    harness.seed({ companies: [company('acme'), company('globex'), company('initech')] });
    const secret = 'Acme ships the payroll release every second Tuesday.';
    expect((await harness.executeTool('memory_note', { text: secret }, run('acme', 'r1'))).error).toBeUndefined();
    const [acme, globex, initech] = await Promise.all(['acme', 'globex', 'initech'].map((id) => plugin.companyService(id)));
    expect(acme).not.toBe(globex);
    expect(initech).toBe(acme);
    await plugin.service()?.flush();
    expect(await filesUnder(acmeFolder, 'latin1')).toContain(secret);
    expect(await filesUnder(globexFolder, 'latin1')).not.toContain(secret);
    for (const other of ['globex', 'initech']) {
      const found = await harness.executeTool('memory_search', { query: 'payroll release Tuesday' }, run(other, `r-${other}`));
      expect(JSON.stringify(found)).not.toContain('payroll');
    }
  });

  it('an agent naming another company in its call context is refused before any service is chosen', async () => {
    const worker = await started({ acme: markdown, globex: markdown });
    const routed = worker.plugin.service();
    const agent = { actor: { kind: 'agent', agentId: 'planner', companyId: 'acme' }, companyId: 'globex' } as const;
    await expect(routed?.runtime(agent).query({ query: 'x' })).rejects.toThrow(/company "globex": the caller belongs to company "acme"/);
    await expect(routed?.hooks.preRunHydrate(agent, { agentId: 'planner', query: 'x' })).rejects.toThrow(/the caller belongs to company "acme"/);
    expect(worker.config.reads).not.toContain('globex');
  });
});

describe.each(workerModes)('a config change (service in %s mode)', (mode) => {
  it('for one company (configChanged with its id) moves that company alone; the other keeps its service, config and memory', async () => {
    const moved = await folder();
    const worker = await started({ acme: markdown, globex: markdown }, {}, undefined, mode);
    const { harness, plugin, config } = worker;
    harness.seed({ companies: [company('acme'), company('globex')] });
    const note = 'Globex freezes deploys during quarter close.';
    expect((await harness.executeTool('memory_note', { text: note }, run('globex', 'g1'))).error).toBeUndefined();
    await harness.executeTool('memory_search', { query: 'warm up' }, run('acme', 'a1'));
    const globexBefore = await plugin.companyService('globex');
    const globexConfig = await plugin.companyConfig('globex');
    const reads = config.reads.length;

    // acme moves to its own data folder in the worker, whatever the mode was.
    await config.save('acme', { ...markdown, service: { mode: 'worker' }, storage: { dataDirectory: moved }, hydration: { enabled: false } });
    expect(await plugin.companyService('globex')).toBe(globexBefore);
    expect(await plugin.companyConfig('globex')).toBe(globexConfig);
    expect((await plugin.companyConfig('acme')).hydration.enabled).toBe(false);
    expect(await plugin.companyService('acme')).not.toBe(globexBefore);
    // The save carried the config: nothing was read again, for either company.
    expect(config.reads.length).toBe(reads);

    const found = await harness.executeTool('memory_search', { query: 'deploys quarter close' }, run('globex', 'g2'));
    expect(JSON.stringify(found)).toContain('quarter close');
    expect((await harness.executeTool('memory_note', { text: 'Acme moved its memory.' }, run('acme', 'a2'))).error).toBeUndefined();
    await plugin.service()?.flush();
    expect(await filesUnder(moved, 'latin1')).toContain('Acme moved its memory.');
    expect(await filesUnder(moved, 'latin1')).not.toContain('quarter close');
  });

  it('a save without a company makes each company read its own config again, with its id', async () => {
    const worker = await started({ acme: markdown }, {}, undefined, mode);
    const { harness, plugin, config } = worker;
    harness.seed({ companies: [company('acme')] });
    await harness.executeTool('memory_search', { query: 'x' }, run('acme', 'a1'));
    const before = config.reads.filter((id) => id === 'acme').length;
    await plugin.definition.onConfigChanged?.({}, { companyId: null });
    await harness.executeTool('memory_search', { query: 'x' }, run('acme', 'a2'));
    expect(config.reads.filter((id) => id === 'acme').length).toBe(before + 1);
    expect(config.reads).not.toContain(undefined);
  });
});
