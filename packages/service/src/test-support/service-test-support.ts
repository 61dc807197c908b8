import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  UnsupportedCapabilityError,
  type MemoryAdapter,
  type MemoryScope,
  type MemorySnippet,
  type MemorySourceRef,
  type MemoryProviderDefinition,
} from '@memplane/core';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { provider as memoryProvider } from '@memplane/memory/provider';
import type { MemoryActor } from '../actor/memory-actor';
import type { MemoryCallContext } from '../runtime/call-context';
import { createMemoryService, type MemoryService } from '../service/create-memory-service';
import type { MemoryServiceSettings } from '../service/memory-service-settings';

/** The actors of the test companies. */
export const actors = {
  acmeAdmin: { kind: 'company', companyId: 'acme', userId: 'admin', role: 'admin' },
  acmeMember: { kind: 'company', companyId: 'acme', userId: 'member', role: 'member' },
  globexAdmin: { kind: 'company', companyId: 'globex', userId: 'admin', role: 'admin' },
  planner: { kind: 'agent', companyId: 'acme', agentId: 'planner' },
  builder: { kind: 'agent', companyId: 'acme', agentId: 'builder' },
  scout: { kind: 'agent', companyId: 'globex', agentId: 'scout' },
  heartbeat: { kind: 'system', component: 'heartbeat' },
  acmeOperator: { kind: 'operator', operatorId: 'ops-1', grantedCompanyIds: ['acme'] },
} as const satisfies Record<string, MemoryActor>;

/** A call context of an actor. */
export const as = (actor: MemoryActor, extra: Omit<MemoryCallContext, 'actor'> = {}): MemoryCallContext => ({ actor, ...extra });

/** Deterministic ids and a clock that moves one second per reading. */
export function deterministicSettings(): Pick<MemoryServiceSettings, 'createId' | 'now'> {
  let id = 0;
  let tick = 0;
  return {
    createId: (prefix) => `${prefix}_${String((id += 1)).padStart(5, '0')}`,
    now: () => new Date(Date.UTC(2026, 10, 1) + (tick += 1) * 1000),
  };
}

/**
 * The providers the service's tests bind, `memory` and `markdown`, as their packages describe
 * them: the service has none of its own, so a test passes them as a host would.
 */
export const testProviders: readonly MemoryProviderDefinition[] = [memoryProvider, markdownProvider];

/** The test providers, then `extra`; a definition of `extra` replaces a test provider of the same id. */
export function withTestProviders(extra: readonly MemoryProviderDefinition[] = []): MemoryProviderDefinition[] {
  const replaced = new Set(extra.map((definition) => definition.providerId));
  return [...testProviders.filter((definition) => !replaced.has(definition.providerId)), ...extra];
}

/** A service on an in-memory SQLite store with a temporary data directory, and the test providers besides those of `settings.providers`. */
export async function createTestService(settings: MemoryServiceSettings = {}): Promise<{ service: MemoryService; cleanUp: () => Promise<void> }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'memplane-service-'));
  const service = await createMemoryService({ dataDirectory, ...deterministicSettings(), ...settings, providers: withTestProviders(settings.providers) });
  return {
    service,
    cleanUp: async () => {
      await service.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** Creates a binding and makes it the company default of the admin's company. */
export async function bindCompanyDefault(service: MemoryService, admin: MemoryActor, key: string, providerId: string, extra: object = {}) {
  const control = service.control(as(admin));
  const binding = await control.createBinding({ key, providerId, ...extra });
  await control.setTarget({ targetType: 'company' }, key);
  return binding;
}

interface LeakyRecord {
  id: string;
  text: string;
  scope: MemoryScope;
  source?: MemorySourceRef;
}

/**
 * A faulty provider shared by every binding that uses it: it stores records of all companies
 * in one list and ignores the scope on every read, the way a misconfigured backend might. It
 * is a raw `MemoryAdapter` (not built with `defineMemoryAdapter`), so only the service's own
 * checks stand between its leaks and the caller.
 */
export function createLeakyProvider(): { factory: MemoryProviderDefinition; records: LeakyRecord[] } {
  const records: LeakyRecord[] = [];
  const toSnippet = (record: LeakyRecord): MemorySnippet => ({
    handle: { providerKey: 'leaky', providerRecordId: record.id },
    text: record.text,
    scope: record.scope,
    ...(record.source === undefined ? {} : { source: record.source }),
  });
  const unsupported = async (): Promise<never> => {
    throw new UnsupportedCapabilityError({ capability: 'optional surfaces', provider: 'leaky' });
  };
  const adapter: MemoryAdapter = {
    specificationVersion: 'v1',
    key: 'leaky',
    capabilities: { profile: true },
    async capture() {
      return {};
    },
    async upsertRecords(request) {
      const handles = request.records.map((input) => {
        const record: LeakyRecord = { id: `leak-${records.length + 1}`, text: input.text, scope: request.scope, ...(request.source === undefined ? {} : { source: request.source }) };
        records.push(record);
        return { providerKey: 'leaky', providerRecordId: record.id };
      });
      return { records: handles };
    },
    async query() {
      return { snippets: records.map(toSnippet) };
    },
    async list() {
      return { items: records.map(toSnippet) };
    },
    async get(handle) {
      const found = records.find((record) => record.id === handle.providerRecordId);
      return found === undefined ? null : toSnippet(found);
    },
    async forget() {
      return {};
    },
    async profile() {
      return { summary: 'everything', items: records.map(toSnippet) };
    },
    correct: unsupported,
    getExtractionJob: unsupported,
    listExtractionJobs: unsupported,
    retryExtractionJob: unsupported,
    explain: unsupported,
  };
  return {
    records,
    factory: { providerId: 'leaky', description: 'Ignores scopes (test only).', capabilities: { profile: true }, create: () => adapter },
  };
}
