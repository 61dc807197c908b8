import { MemoryConflictError, MemoryValidationError } from '@memplane/core';
import { provider as mem0Provider } from '@memplane/mem0/provider';
import { createMemoryAdapter } from '@memplane/memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import type { MemoryService } from '../service/create-memory-service';
import { actors, as, createTestService } from '../test-support/service-test-support';

describe('control plane', () => {
  let service: MemoryService;
  let cleanUp: () => Promise<void>;
  let environment: Record<string, string | undefined>;

  beforeEach(async () => {
    environment = { ACME_MARKDOWN_SECRET: 'a-cursor-secret-of-some-length' };
    ({ service, cleanUp } = await createTestService({
      providers: [mem0Provider],
      environment,
      secretEnvironment: { acme: ['ACME_MARKDOWN_SECRET', 'MISSING_VARIABLE', 'ROTATED_SECRET_LATER'] },
    }));
  });
  afterEach(async () => cleanUp());

  const admin = () => service.control(as(actors.acmeAdmin));

  it('creates a binding with capabilities read from its adapter and capture hooks off', async () => {
    const binding = await admin().createBinding({ key: 'default', providerId: 'markdown' });
    expect(binding).toMatchObject({
      companyId: 'acme',
      key: 'default',
      providerId: 'markdown',
      config: {},
      enabled: true,
      revision: 1,
      hooks: { postRunCapture: false, issueCommentCapture: false, issueDocumentCapture: false },
      capabilities: { correction: true, profile: true, metadataFilter: true },
    });
    const scratch = await admin().createBinding({ key: 'scratch', providerId: 'memory', hooks: { postRunCapture: true } });
    expect(scratch.capabilities).toMatchObject({ asyncExtraction: true, listExtractionJobs: true, retryExtractionJob: true });
    expect((await admin().listBindings()).map((entry) => entry.key)).toEqual(['default', 'scratch']);
    expect(await service.control(as(actors.globexAdmin)).listBindings()).toEqual([]);
  });

  it('refuses secrets in plain text and bad configs, naming the field, and saves nothing', async () => {
    const refused = async (input: Parameters<ReturnType<typeof admin>['createBinding']>[0], field: string) => {
      const error = await admin().createBinding(input).then(() => undefined, (thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(MemoryValidationError);
      expect((error as MemoryValidationError).field).toBe(field);
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('sk-live-123');
    };
    await refused({ key: 'a', providerId: 'markdown', config: { cursorSecret: 'sk-live-123' } }, 'config.cursorSecret');
    await refused({ key: 'b', providerId: 'mem0', config: { apiKey: 'sk-live-123' } }, 'config.apiKey');
    await refused({ key: 'c', providerId: 'memory', config: { nested: { accessToken: 'sk-live-123' } } }, 'config.nested.accessToken');
    await refused({ key: 'd', providerId: 'memory', config: { timeoutMs: 'soon' } }, 'config.timeoutMs');
    await refused({ key: 'e', providerId: 'markdown', config: { cursorSecret: { $secret: { file: '/etc/x' } } } }, 'config.cursorSecret');
    await refused({ key: 'f', providerId: 'nope' }, 'providerId');
    await refused({ key: 'bad key', providerId: 'memory' }, 'key');
    expect(await admin().listBindings()).toEqual([]);
    expect((await admin().listActivity()).items).toEqual([]);
  });

  it('keeps secret references, resolves them only to build the adapter, and fails on a missing variable', async () => {
    const binding = await admin().createBinding({
      key: 'default',
      providerId: 'markdown',
      config: { cursorSecret: { $secret: { env: 'ACME_MARKDOWN_SECRET' } } },
    });
    expect(binding.config).toEqual({ cursorSecret: { $secret: { env: 'ACME_MARKDOWN_SECRET' } } });
    await admin().setTarget({ targetType: 'company' }, 'default');
    await expect(service.runtime(as(actors.planner)).list()).resolves.toMatchObject({ bindingKey: 'default' });
    // A reference that cannot be resolved is refused when saved, and the binding stays as it was.
    await expect(admin().updateBinding('default', { config: { cursorSecret: { $secret: { env: 'MISSING_VARIABLE' } } } })).rejects.toThrow(
      'environment variable MISSING_VARIABLE, which is not set',
    );
    expect((await admin().getBinding('default'))?.revision).toBe(1);
    // A provider with a static manifest is not built when saved: a missing secret shows at first use,
    // and a failed build is not cached, so setting the variable is enough.
    const received: unknown[] = [];
    await service.providers.register(as(actors.acmeOperator, { companyId: 'acme' }), {
      providerId: 'keyed',
      description: 'needs an API key',
      capabilities: {},
      secretFields: ['apiKey'],
      create: (config: Record<string, unknown>) => {
        received.push(config.apiKey);
        return createMemoryAdapter();
      },
    });
    await admin().createBinding({ key: 'keyed', providerId: 'keyed', config: { apiKey: { $secret: { env: 'ROTATED_SECRET_LATER' } } } });
    const keyed = () => service.runtime(as(actors.planner)).list({ bindingKey: 'keyed' });
    await expect(keyed()).rejects.toThrow('environment variable ROTATED_SECRET_LATER, which is not set');
    environment.ROTATED_SECRET_LATER = 'set-at-last-value';
    await expect(keyed()).resolves.toMatchObject({ bindingKey: 'keyed', providerId: 'keyed' });
    expect(received).toEqual(['set-at-last-value']);
    const activity = JSON.stringify((await admin().listActivity()).items);
    expect(activity).toContain('ACME_MARKDOWN_SECRET');
    expect(activity).not.toContain('a-cursor-secret-of-some-length');
    expect(activity).not.toContain('set-at-last-value');
  });

  it('resolves the agent override first, then the company default, else a typed error', async () => {
    await expect(admin().resolve('planner')).rejects.toBeInstanceOf(MemoryBindingNotFoundError);
    await admin().createBinding({ key: 'default', providerId: 'markdown' });
    await admin().createBinding({ key: 'builder-own', providerId: 'memory' });
    await expect(admin().resolve()).rejects.toMatchObject({ companyId: 'acme', code: 'MEMORY_CONFIGURATION' });
    await admin().setTarget({ targetType: 'company' }, 'default');
    await admin().setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-own');
    expect(await admin().resolve('builder')).toMatchObject({ resolvedBy: 'agent', binding: { key: 'builder-own' } });
    expect(await admin().resolve('planner')).toMatchObject({ resolvedBy: 'company', binding: { key: 'default' } });
    await admin().updateBinding('builder-own', { enabled: false });
    expect(await admin().resolve('builder')).toMatchObject({ resolvedBy: 'company', binding: { key: 'default' } });
    expect(await admin().removeTarget({ targetType: 'company' })).toBe(true);
    const error = await admin().resolve('builder').catch((thrown: unknown) => thrown);
    expect(MemoryBindingNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      agentId: 'builder',
      message:
        'Company "acme" has no enabled binding for agent "builder" (no agent override and no company default). Point the company at a binding with setTarget({ targetType: \'company\' }, key), or this agent with setTarget({ targetType: \'agent\', agentId: \'builder\' }, key).',
    });
  });

  it('records every change in the activity log with actor, time, before and after', async () => {
    const created = await admin().createBinding({ key: 'default', providerId: 'memory' });
    await admin().setTarget({ targetType: 'company' }, 'default');
    const updated = await admin().updateBinding('default', { hooks: { issueCommentCapture: true } });
    expect(updated).toMatchObject({ revision: 2, hooks: { issueCommentCapture: true, postRunCapture: false } });
    expect(await admin().deleteBinding('default')).toBe(true);
    const { items } = await admin().listActivity();
    expect(items.map((entry) => entry.action)).toEqual(['binding.deleted', 'target.removed', 'binding.updated', 'target.set', 'binding.created']);
    expect(items.every((entry) => entry.actor.kind === 'company' && entry.actor.id === 'admin' && entry.createdAt.startsWith('2026-11-01'))).toBe(true);
    expect(items[4]).toMatchObject({ before: null, after: created, subjectId: created.id });
    expect(items[2]).toMatchObject({ before: created, after: updated });
    expect(items[3]).toMatchObject({ before: null, after: { targetType: 'company', targetId: 'acme', bindingKey: 'default' } });
    expect(items[0]).toMatchObject({ before: updated, after: null });
    expect(await admin().listTargets()).toEqual([]);
  });

  it('refuses a stale revision and a key taken in the company', async () => {
    await admin().createBinding({ key: 'default', providerId: 'memory' });
    await admin().createBinding({ key: 'other', providerId: 'memory' });
    await admin().updateBinding('default', { enabled: false });
    await expect(admin().updateBinding('default', { enabled: true, expectedRevision: 1 })).rejects.toBeInstanceOf(MemoryConflictError);
    await expect(admin().updateBinding('default', { key: 'other' })).rejects.toMatchObject({ field: 'key' });
    await expect(admin().updateBinding('missing', { enabled: true })).rejects.toBeInstanceOf(MemoryBindingNotFoundError);
    await expect(admin().setTarget({ targetType: 'agent', agentId: 'planner' }, 'missing')).rejects.toBeInstanceOf(MemoryBindingNotFoundError);
  });

  it('lets an operator manage only the companies it is granted', async () => {
    const operator = service.control(as(actors.acmeOperator, { companyId: 'acme' }));
    await operator.createBinding({ key: 'default', providerId: 'memory' });
    expect((await operator.listActivity()).items[0]?.actor).toEqual({ kind: 'operator', id: 'ops-1' });
    await expect(service.control(as(actors.acmeOperator, { companyId: 'globex' })).listBindings()).rejects.toThrow('not granted');
  });
});
