import type { MemoryBinding, MemoryBindingTarget } from '../bindings/memory-binding';
import type { MemoryCostEventEntry, MemoryFinanceEventEntry } from '../store/memory-accounting-records';
import type {
  MemoryActivityEntry,
  MemoryExtractionJobEntry,
  MemoryHookDeliveryEntry,
  MemoryOperationEntry,
} from '../store/memory-service-records';

/** Builders of store entries with deterministic ids and times, for store tests. */
export interface StoreFixtures {
  binding(overrides?: Partial<MemoryBinding>): MemoryBinding;
  target(binding: MemoryBinding, overrides?: Partial<MemoryBindingTarget>): MemoryBindingTarget;
  activity(companyId: string, overrides?: Partial<MemoryActivityEntry>): MemoryActivityEntry;
  operation(overrides?: Partial<MemoryOperationEntry>): MemoryOperationEntry;
  delivery(overrides?: Partial<MemoryHookDeliveryEntry>): MemoryHookDeliveryEntry;
  job(binding: MemoryBinding, overrides?: Partial<MemoryExtractionJobEntry>): MemoryExtractionJobEntry;
  costEvent(overrides?: Partial<MemoryCostEventEntry>): MemoryCostEventEntry;
  financeEvent(overrides?: Partial<MemoryFinanceEventEntry>): MemoryFinanceEventEntry;
  /** The n-th timestamp of the fixture clock: 2026-01-01T00:00:00Z plus n seconds. */
  time(n: number): string;
}

/** Creates fresh builders; ids count up from 1 per kind. */
export function createStoreFixtures(): StoreFixtures {
  const counters = new Map<string, number>();
  const next = (prefix: string) => {
    const value = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, value);
    return `${prefix}_${String(value).padStart(4, '0')}`;
  };
  const time = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();

  return {
    time,
    binding: (overrides = {}) => {
      const id = overrides.id ?? next('bnd');
      return {
        id,
        companyId: 'acme',
        key: `key-${id}`,
        providerId: 'memory',
        config: { timeoutMs: 1000, nested: { list: [1, 'two', null] }, apiKey: { $secret: { env: 'ACME_KEY' } } },
        enabled: true,
        hooks: { postRunCapture: true, issueCommentCapture: false, issueDocumentCapture: false },
        capabilities: { correction: true, profile: false },
        revision: 1,
        createdAt: time(0),
        updatedAt: time(0),
        ...overrides,
      };
    },
    target: (binding, overrides = {}) => ({
      companyId: binding.companyId,
      targetType: 'company',
      targetId: binding.companyId,
      bindingId: binding.id,
      createdAt: time(1),
      updatedAt: time(1),
      ...overrides,
    }),
    activity: (companyId, overrides = {}) => ({
      id: next('act'),
      companyId,
      actor: { kind: 'company', id: 'admin' },
      action: 'binding.created',
      subjectType: 'binding',
      subjectId: 'bnd_x',
      before: null,
      after: { key: 'x' },
      createdAt: time(2),
      ...overrides,
    }),
    operation: (overrides = {}) => ({
      id: next('op'),
      companyId: 'acme',
      bindingId: 'bnd_0001',
      bindingKey: 'default',
      providerId: 'memory',
      operation: 'query',
      status: 'succeeded',
      actor: { kind: 'agent', id: 'planner' },
      scope: { companyId: 'acme', agentId: 'planner' },
      usage: [{ provider: 'memory', attributionMode: 'untracked', latencyMs: 0.25 }],
      latencyMs: 0.5,
      droppedOutOfScope: 0,
      warnings: [],
      createdAt: time(10),
      ...overrides,
    }),
    delivery: (overrides = {}) => ({
      id: next('dlv'),
      companyId: 'acme',
      hookId: 'hook_0001',
      hookKind: 'post_run_capture',
      receiver: 'binding:default',
      status: 'succeeded',
      attempts: 1,
      startedAt: time(20),
      finishedAt: time(21),
      latencyMs: 3.5,
      ...overrides,
    }),
    job: (binding, overrides = {}) => ({
      id: next('job'),
      companyId: binding.companyId,
      bindingId: binding.id,
      bindingKey: binding.key,
      providerJobId: next('provider-job'),
      status: 'queued',
      scope: { companyId: binding.companyId, agentId: 'planner' },
      retryCount: 0,
      createdAt: time(30),
      updatedAt: time(30),
      ...overrides,
    }),
    costEvent: (overrides = {}) => ({
      id: next('cost'),
      companyId: 'acme',
      operationId: 'op_0001',
      bindingId: 'bnd_0001',
      bindingKey: 'default',
      provider: 'mem0',
      billingType: 'metered_api',
      agentId: 'planner',
      inputTokens: 100,
      costCents: 0.5,
      occurredAt: time(40),
      ...overrides,
    }),
    financeEvent: (overrides = {}) => ({
      id: next('fin'),
      companyId: 'acme',
      kind: 'subscription',
      direction: 'debit',
      biller: 'mem0',
      amountCents: 1900,
      estimated: false,
      recordedBy: 'company:admin',
      occurredAt: time(50),
      ...overrides,
    }),
  };
}
