import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryAdapter, MemoryUsage, MemoryProviderDefinition } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryService } from '../service/create-memory-service';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { actors, as, deterministicSettings } from '../test-support/service-test-support';

// A key whose URL, JSON and base64 forms all differ from it.
const secret = 'sk-echo/Key+42=live?"x';
const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')];

/** A faulty provider that echoes its API key in everything it returns: error URLs, warnings, usage, raw payloads, job errors. */
function echoingProvider(): MemoryProviderDefinition {
  return {
    providerId: 'echo',
    description: 'Echoes its key (test only).',
    secretFields: ['apiKey'],
    capabilities: { asyncExtraction: true },
    create: (config) => {
      const key = String(config.apiKey);
      const inner = createMemoryAdapter();
      const usage = (): MemoryUsage[] => [
        {
          provider: 'echo',
          billingType: 'metered_api',
          attributionMode: 'billed_directly',
          costCents: 2,
          details: { url: `https://echo.example/v1/search?api_key=${encodeURIComponent(key)}` },
          raw: { echoed: key, headers: { authorization: `Bearer ${key}` }, basic: Buffer.from(key).toString('base64') },
        },
      ];
      let captures = 0;
      const adapter: MemoryAdapter = {
        ...inner,
        query: async (request) => ({
          ...(await inner.query(request)),
          warnings: [{ type: 'unsupported', feature: 'topK', details: `GET https://echo.example/search?key=${key} ignored topK` }],
          usage: usage(),
        }),
        list: async () => {
          throw new Error(`GET https://echo.example/list?api_key=${key} returned 500`, { cause: new Error(`upstream: invalid key "${key}"`) });
        },
        capture: async () => {
          captures += 1;
          if (captures > 1) throw new TypeError(`capture rejected for ${JSON.stringify({ key })}`);
          return { jobs: [{ providerJobId: 'job-1', status: 'failed', error: `extraction with ${key} failed` }], usage: usage() };
        },
      };
      return adapter;
    },
  };
}

describe('a provider that echoes the secret it was given', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('never gets it stored or returned: results, errors and their causes, warnings, usage, raw payloads, jobs, hook deliveries, cost events, the SQLite file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'memplane-echo-'));
    directories.push(directory);
    const filename = join(directory, 'service.db');
    const background: unknown[] = [];
    const service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename }),
      environment: { ECHO_KEY: secret },
      secretEnvironment: { acme: ['ECHO_KEY'] },
      providers: [echoingProvider()],
      onBackgroundError: (error) => background.push(error),
      ...deterministicSettings(),
    });
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'echo', providerId: 'echo', config: { apiKey: { $secret: { env: 'ECHO_KEY' } } }, hooks: { postRunCapture: true } });
    await admin.setTarget({ targetType: 'company' }, 'echo');
    const memory = service.runtime(as(actors.planner));
    const returned: unknown[] = [];

    returned.push(await memory.query({ query: 'anything' }));
    const failure = await memory.list().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    for (let error: unknown = failure; error instanceof Error; error = error.cause) returned.push(error.message, error.stack);
    const system = as(actors.heartbeat, { companyId: 'acme' });
    returned.push(await service.hooks.postRunCapture(system, { agentId: 'planner', heartbeatRunId: 'run-1', output: { text: 'first run' } }));
    returned.push(await service.hooks.postRunCapture(system, { agentId: 'planner', heartbeatRunId: 'run-2', output: { text: 'second run' } }));
    const explorer = service.explorer(as(actors.acmeAdmin));
    returned.push(await explorer.listOperations(), await explorer.listHookDeliveries(), await memory.listExtractionJobs());
    returned.push(await service.costs(as(actors.acmeAdmin)).listCostEvents(), await admin.listActivity(), background);

    const everything = JSON.stringify(returned);
    for (const form of forms) expect(everything).not.toContain(form);
    // The echoes were there, and were replaced.
    expect(everything).toContain('[redacted]');
    expect(everything).toContain('returned 500');
    const deliveries = (await explorer.listHookDeliveries()).items;
    expect(deliveries.some((entry) => entry.status === 'failed' && entry.error?.includes('[redacted]'))).toBe(true);
    expect((await service.costs(as(actors.acmeAdmin)).listCostEvents()).items.length).toBeGreaterThan(0);

    await service.close();
    for (const file of [filename, `${filename}-wal`, `${filename}-shm`].filter(existsSync)) {
      const bytes = readFileSync(file);
      for (const form of forms) expect(bytes.includes(Buffer.from(form)), `${file} holds ${form}`).toBe(false);
    }
  });

  it('keeps it out of the hook reports returned to the caller, where a subscriber failed with its own error text', async () => {
    const service = await createMemoryService({
      environment: { ECHO_KEY: secret },
      secretEnvironment: { acme: ['ECHO_KEY'] },
      providers: [echoingProvider()],
      ...deterministicSettings(),
    });
    const admin = service.control(as(actors.acmeAdmin));
    await admin.createBinding({ key: 'echo', providerId: 'echo', config: { apiKey: { $secret: { env: 'ECHO_KEY' } } }, hooks: { postRunCapture: true } });
    await admin.setTarget({ targetType: 'company' }, 'echo');
    // A subscriber (a plugin sharing the company's key) fails with an error that quotes the key.
    service.hooks.subscribe(['post_run_capture', 'pre_run_hydrate', 'manual_capture'], {
      name: 'leaky-indexer',
      deliver: () => {
        throw new Error(`POST https://indexer.example/v1?api_key=${encodeURIComponent(secret)} refused ${JSON.stringify({ key: secret })}`);
      },
    });
    const system = as(actors.heartbeat, { companyId: 'acme' });
    const reports = [
      await service.hooks.postRunCapture(system, { agentId: 'planner', heartbeatRunId: 'run-1', output: { text: 'a run' } }),
      await service.hooks.preRunHydrate(system, { agentId: 'planner', query: 'anything' }),
      await service.hooks.manualCapture(system, { agentId: 'planner', text: 'a note' }),
    ];
    const subscriberEntries = reports.flatMap((report) => report.deliveries.filter((entry) => entry.receiver === 'leaky-indexer'));
    expect(subscriberEntries).toHaveLength(3);
    expect(subscriberEntries.every((entry) => entry.status === 'failed' && entry.error?.includes('[redacted]'))).toBe(true);
    const everything = JSON.stringify(reports);
    for (const form of forms) expect(everything).not.toContain(form);
    await service.close();
  });
});
