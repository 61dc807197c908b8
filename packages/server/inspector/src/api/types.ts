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
  MemoryServiceForgetResult,
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
  /** The token's role: the inspector is for operators and company admins, never agents. */
  role: 'operator' | 'admin' | 'agent';
  actor: { kind: string; [field: string]: unknown };
  /** The companies the token sees (for an operator of every company: those the server knows). */
  companies: string[];
  /** True for an operator of every company, who may open a company not listed. */
  allCompanies?: boolean;
}

/** Why an agent token is refused at sign-in: the inspector is the operators' and company admins' tool. */
export const agentTokenRefusal = 'This is an agent token, and an agent token cannot use the inspector: it is for operators and company admins. Sign in with an operator or company admin token.';

/** Whether a session is an agent's (by its role, or by its actor where a server gives no role). */
export const isAgentSession = (session: InspectorSession) => session.role === 'agent' || session.actor.kind === 'agent';
