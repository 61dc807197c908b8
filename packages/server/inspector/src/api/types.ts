// The shapes the server returns are the service's own types: imported for their types only,
// so the bundle carries no service code and a change there breaks this build, not the page.
export type {
  MemoryActivityEntry,
  MemoryBinding,
  MemoryBindingMetrics,
  MemoryBindingTarget,
  MemoryCostSummary,
  MemoryExplorerPage,
  MemoryExtractionJobEntry,
  MemoryFinanceEventEntry,
  MemoryOperationEntry,
  MemoryOperationMetrics,
  MemoryOperationReceipt,
  MemoryProviderConfigDescription,
  MemoryProviderDescription,
  ResolvedMemoryBinding,
} from '@memplane/service';
export type {
  MemoryAdapterCapabilities,
  MemoryContextBundle,
  MemoryExplanation,
  MemoryListPage,
  MemoryRecordHandle,
  MemoryScope,
  MemorySnippet,
  MemorySourceKind,
  MemorySourceRef,
  MemoryUsage,
} from '@memplane/core';

/** Who the token is, as `GET /v1/session` tells. */
export interface InspectorSession {
  actor: { kind: string; [field: string]: unknown };
  /** The companies the token sees (for an operator of every company: those the server knows). */
  companies: string[];
  /** True for an operator of every company, who may open a company not listed. */
  allCompanies?: boolean;
}
