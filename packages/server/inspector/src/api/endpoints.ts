import { companyPath, type InspectorApi } from './client';
import type {
  MemoryActivityEntry,
  MemoryBinding,
  MemoryBindingTarget,
  MemoryContextBundle,
  MemoryCostSummary,
  MemoryExplanation,
  MemoryExplorerPage,
  MemoryExtractionJobEntry,
  MemoryFinanceEventEntry,
  MemoryListPage,
  MemoryOperationEntry,
  MemoryOperationMetrics,
  MemoryOperationReceipt,
  MemoryProviderConfigDescription,
  MemoryProviderDescription,
  MemoryRecordHandle,
  MemoryScope,
  MemoryServiceForgetResult,
  MemorySnippet,
  ResolvedMemoryBinding,
} from './types';

/** A list answer: a bare array, or an object holding it under one key. */
function listOf<Item>(value: unknown, ...keys: string[]): Item[] {
  if (Array.isArray(value)) return value as Item[];
  if (typeof value === 'object' && value !== null) {
    for (const key of [...keys, 'items']) {
      const inner = (value as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner as Item[];
    }
  }
  return [];
}

/** The filters of the operations explorer, as the server takes them. */
export interface OperationFilters {
  /** Who called (the actor's id), whatever the scope names. */
  actor?: string;
  /** The kind of that actor; the server takes it only beside `actor`. */
  actorKind?: string;
  /** The agent the scope names. */
  agentId?: string;
  issueId?: string;
  projectId?: string;
  runId?: string;
  sourceKind?: string;
  operation?: string;
  status?: string;
  bindingKey?: string;
  from?: string;
  to?: string;
}

/** The scope fields a person may type (the company is the page's). */
export type ScopeInput = Partial<Omit<MemoryScope, 'companyId'>>;

/** The routes the inspector calls, one function each, for one company. */
export function endpoints(api: InspectorApi, companyId: string) {
  const control = (...parts: string[]) => companyPath(companyId, 'control', ...parts);
  const explorer = (...parts: string[]) => companyPath(companyId, 'explorer', ...parts);
  const memory = (...parts: string[]) => companyPath(companyId, 'memory', ...parts);
  return {
    providers: async () => listOf<MemoryProviderDescription>(await api.get(control('providers')), 'providers'),
    providerConfig: (providerId: string) => api.get<MemoryProviderConfigDescription>(control('providers', providerId)),
    bindings: async () => listOf<MemoryBinding>(await api.get(control('bindings')), 'bindings'),
    targets: async () => listOf<MemoryBindingTarget>(await api.get(control('targets')), 'targets'),
    resolve: (agentId?: string) => api.get<ResolvedMemoryBinding>(control('resolve'), { agentId }),
    activity: (cursor?: string, limit = 50) => api.get<MemoryExplorerPage<MemoryActivityEntry>>(control('activity'), { cursor, limit }),
    createBinding: (input: Record<string, unknown>) => api.send<MemoryBinding>('POST', control('bindings'), input),
    updateBinding: (key: string, input: Record<string, unknown>) => api.send<MemoryBinding>('PATCH', control('bindings', key), input),
    setTarget: (target: { targetType: 'company' } | { targetType: 'agent'; agentId: string }, bindingKey: string) =>
      api.send<MemoryBindingTarget>('PUT', control('targets'), { target, bindingKey }),
    removeAgentOverride: (agentId: string) =>
      api.send<{ removed: boolean }>('DELETE', `${control('targets')}?${new URLSearchParams({ targetType: 'agent', agentId }).toString()}`),

    operations: (filters: OperationFilters, cursor?: string, limit = 25) =>
      api.get<MemoryExplorerPage<MemoryOperationEntry>>(explorer('operations'), { ...filters, cursor, limit }),
    operation: (operationId: string) => api.get<MemoryOperationEntry>(explorer('operations', operationId)),
    metrics: (range: { from?: string; to?: string; bindingKey?: string }) => api.get<MemoryOperationMetrics>(explorer('metrics'), range),
    costSummary: (groupBy: 'day' | 'binding' | 'agent', range: { from?: string; to?: string }) =>
      api.get<MemoryCostSummary>(explorer('cost-summary'), { groupBy, ...range }),
    recordFinanceEvent: (input: { kind: string; biller: string; amountCents: number; direction?: 'debit' | 'credit'; bindingKey?: string; description?: string }) =>
      api.send<MemoryFinanceEventEntry>('POST', explorer('finance-events'), input),
    financeEvents: (cursor?: string, limit = 20) => api.get<MemoryExplorerPage<MemoryFinanceEventEntry>>(explorer('finance-events'), { cursor, limit }),
    extractionJobs: (filters: { status?: string; bindingKey?: string }, cursor?: string, limit = 25) =>
      api.get<MemoryExplorerPage<MemoryExtractionJobEntry>>(explorer('extraction-jobs'), {
        ...(filters.status === undefined || filters.status === '' ? {} : { statuses: filters.status }),
        bindingKey: filters.bindingKey,
        cursor,
        limit,
      }),
    retryJob: (jobId: string) => api.send<{ job: MemoryExtractionJobEntry } & MemoryOperationReceipt>('POST', memory('jobs', jobId, 'retry'), {}),
    refreshJobs: () => api.send<{ jobs: MemoryExtractionJobEntry[] }>('POST', memory('jobs', 'refresh'), {}),

    listRecords: (request: { bindingKey?: string; scope: ScopeInput; cursor?: string; limit?: number }) =>
      api.send<MemoryListPage & MemoryOperationReceipt>('POST', memory('list'), request),
    getRecord: (request: { bindingKey?: string; handle: MemoryRecordHandle }) =>
      api.send<{ snippet: MemorySnippet | null } & MemoryOperationReceipt>('POST', memory('get'), request),
    query: (request: { bindingKey?: string; scope: ScopeInput; query: string; topK?: number; intent?: string; explain?: boolean }) =>
      api.send<MemoryContextBundle & MemoryOperationReceipt & { explanation?: MemoryExplanation }>('POST', memory('query'), request),
    correct: (request: { bindingKey?: string; handle: MemoryRecordHandle; patch: { text?: string; reason?: string } }) =>
      api.send<MemoryOperationReceipt>('POST', memory('correct'), request),
    forget: (request: { bindingKey?: string; handles: MemoryRecordHandle[] }) => api.send<MemoryServiceForgetResult & MemoryOperationReceipt>('POST', memory('forget'), request),
  };
}

/** The endpoints of one company. */
export type InspectorEndpoints = ReturnType<typeof endpoints>;
