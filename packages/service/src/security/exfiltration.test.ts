import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBindingRefusedError } from '../errors/memory-binding-refused-error';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';
import { createSqliteMemoryServiceStore } from '../store/sqlite/sqlite-memory-service-store';
import { forwardingHostedProviders, startLoopbackSink } from '../test-support/security-fixtures';
import { actors, as, deterministicSettings } from '../test-support/service-test-support';

// The host's environment: acme's own key, another company's key, and the operator's database.
const environment = {
  ACME_MEM0_KEY: 'acme-own-key-7f3a9c',
  OTHER_COMPANY_KEY: 'globex-key-never-leaves-5d1e8b',
  DATABASE_URL: 'postgres://platform:db-password-91c2@db.internal/platform',
  SUPERMEMORY_BASE_URL: 'http://127.0.0.1:1',
};
const foreignValues = [environment.OTHER_COMPANY_KEY, environment.DATABASE_URL, 'db-password-91c2'];

describe('a company admin trying to send host secrets to a loopback sink', () => {
  let sink: Awaited<ReturnType<typeof startLoopbackSink>>;
  let directory: string;
  const services: MemoryService[] = [];
  const seen: Array<Record<string, unknown>> = [];

  beforeEach(async () => {
    sink = await startLoopbackSink();
    directory = mkdtempSync(join(tmpdir(), 'memplane-exfiltration-'));
    seen.length = 0;
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.close();
    await sink.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function start(settings: MemoryServiceSettings = {}): Promise<MemoryService> {
    const service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename: join(directory, 'service.db') }),
      environment,
      secretEnvironment: { acme: ['ACME_MEM0_KEY'] },
      providers: forwardingHostedProviders(seen),
      ...deterministicSettings(),
      ...settings,
    });
    services.push(service);
    return service;
  }

  /** Tries a binding the way an attacker would: create it, make it the default, use it. */
  async function attempt(service: MemoryService, key: string, providerId: string, config: Record<string, unknown>): Promise<unknown> {
    const admin = service.control(as(actors.acmeAdmin));
    try {
      await admin.createBinding({ key, providerId, config });
      await admin.setTarget({ targetType: 'company' }, key);
      await service.runtime(as(actors.planner)).list();
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it('gets nothing out: no foreign variable, no host secret, no request at all', async () => {
    const service = await start();
    const attacks: Array<[string, Record<string, unknown>, string]> = [
      // The attack: a loopback host and another company's key.
      ['mem0', { baseURL: sink.url, apiKey: { $secret: { env: 'OTHER_COMPANY_KEY' } } }, 'config.baseURL'],
      // The old setting name, any casing of the loopback address.
      ['mem0', { host: sink.url, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } }, 'config.host'],
      ['mem0', { baseURL: `http://2130706433:${sink.port}`, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } }, 'config.baseURL'],
      ['mem0', { baseURL: `http://[::1]:${sink.port}`, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } }, 'config.baseURL'],
      ['mem0', { baseURL: `http://localhost:${sink.port}`, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } }, 'config.baseURL'],
      ['supermemory', { baseURL: `http://127.1:${sink.port}/v3`, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } }, 'config.baseURL'],
      // Foreign variables at the official endpoint.
      ['mem0', { apiKey: { $secret: { env: 'OTHER_COMPANY_KEY' } } }, 'config.apiKey'],
      ['mem0', { apiKey: { $secret: { env: 'DATABASE_URL' } } }, 'config.apiKey'],
      ['mem0', { apiKey: { $secret: { env: 'ACME_MEM0_KEY' } }, headers: { 'X-Debug': { $secret: { env: 'DATABASE_URL' } } } }, 'config.headers.X-Debug'],
    ];
    const refusals: unknown[] = [];
    for (const [index, [providerId, config, field]] of attacks.entries()) {
      const error = await attempt(service, `attack-${index}`, providerId, config);
      expect(MemoryBindingRefusedError.isInstance(error), `attack ${index} (${providerId} ${JSON.stringify(config)})`).toBe(true);
      expect(error).toMatchObject({ field });
      refusals.push(error);
    }
    expect(sink.requests).toEqual([]);
    expect(await service.control(as(actors.acmeAdmin)).listBindings()).toEqual([]);
    // Every refusal is in the activity log, with the rule and the field, never a value.
    const activity = (await service.control(as(actors.acmeAdmin)).listActivity({ limit: 50 })).items;
    expect(activity.filter((entry) => entry.action === 'binding.refused')).toHaveLength(attacks.length);
    const logged = JSON.stringify(activity);
    for (const value of [...foreignValues, environment.ACME_MEM0_KEY]) expect(logged).not.toContain(value);
    for (const error of refusals) expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toMatch(/globex-key|db-password|acme-own-key/);
  });

  it('never lets a hosted adapter fall back to the host environment for its endpoint or key', async () => {
    const service = await start();
    // No baseURL: the official endpoint is written into the settings, so SUPERMEMORY_BASE_URL (the sink) is never read.
    await service.control(as(actors.acmeAdmin)).createBinding({ key: 'sm', providerId: 'supermemory', config: { apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } } });
    await service.control(as(actors.acmeAdmin)).setTarget({ targetType: 'company' }, 'sm');
    await service.runtime(as(actors.planner)).list();
    expect(seen).toEqual([{ apiKey: environment.ACME_MEM0_KEY, baseURL: 'https://api.supermemory.ai' }]);
    // No apiKey: the adapter would read the host's MEM0_API_KEY.
    await expect(service.control(as(actors.acmeAdmin)).createBinding({ key: 'm0', providerId: 'mem0', config: {} })).rejects.toMatchObject({ field: 'config.apiKey' });
    expect(sink.requests).toEqual([]);
  });

  it('reaches a loopback endpoint only when the operator allows it, and then only with the company’s own key', async () => {
    const service = await start({ destinations: { endpoints: { mem0: [sink.url] }, allowPrivateNetworks: true } });
    expect(await attempt(service, 'local', 'mem0', { baseURL: sink.url, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } })).toBeUndefined();
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]!.headers.authorization).toBe(`Token ${environment.ACME_MEM0_KEY}`);
    for (const value of foreignValues) expect(sink.everything()).not.toContain(value);
    // Allow-listed but private without the opt-in: refused.
    const strict = await start({ destinations: { endpoints: { mem0: [sink.url] } } });
    expect(await attempt(strict, 'local', 'mem0', { baseURL: sink.url, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } })).toMatchObject({
      rule: 'destination',
      field: 'config.baseURL',
    });
  });

  it('fails closed when the allow-list narrows after the binding was saved', async () => {
    const permissive = await start({ destinations: { endpoints: { mem0: [sink.url] }, allowPrivateNetworks: true } });
    await permissive.control(as(actors.acmeAdmin)).createBinding({ key: 'local', providerId: 'mem0', config: { baseURL: sink.url, apiKey: { $secret: { env: 'ACME_MEM0_KEY' } } } });
    await permissive.control(as(actors.acmeAdmin)).setTarget({ targetType: 'company' }, 'local');
    await permissive.close();
    services.splice(services.indexOf(permissive), 1);
    // The same store under the default policy, and under an allow-list without the company's variable.
    for (const settings of [{}, { destinations: { endpoints: { mem0: [sink.url] }, allowPrivateNetworks: true }, secretEnvironment: {} }] as MemoryServiceSettings[]) {
      const strict = await start(settings);
      const error = await strict.runtime(as(actors.planner)).list().then(() => undefined, (thrown: unknown) => thrown);
      expect(MemoryBindingRefusedError.isInstance(error)).toBe(true);
      const failed = (await strict.explorer(as(actors.acmeAdmin)).listOperations({ status: 'failed' })).items;
      expect(failed[0]).toMatchObject({ operation: 'list', errorCode: 'MEMORY_VALIDATION' });
    }
    expect(sink.requests).toEqual([]);
  });
});
