import type { MemoryScope, MemoryScopeField } from '@memplane/core';
import { qualifiedEntityId } from './mem0-entity-id';

/**
 * The mem0 metadata key of each scope field. mem0 stores `metadata` on every memory it
 * extracts, and filters on top-level metadata keys, so every scope field lives there and
 * reads filter on it. `companyId` is also mem0's `app_id`, which mem0 stores on every
 * record and which every read filters on first.
 */
export const mem0ScopeMetadataKeys = {
  companyId: 'memplane_company',
  agentId: 'memplane_agent',
  projectId: 'memplane_project',
  issueId: 'memplane_issue',
  runId: 'memplane_run',
  subjectId: 'memplane_subject',
  sessionKey: 'memplane_session',
  namespace: 'memplane_namespace',
} as const satisfies Record<MemoryScopeField, string>;

const scopeFields = Object.keys(mem0ScopeMetadataKeys) as MemoryScopeField[];
const belowCompany = scopeFields.filter((field) => field !== 'companyId');

/** The mem0 entity ids of a write. */
export interface Mem0EntityIds {
  /** `app_id`: the company. */
  appId: string;
  /** `user_id`: the company-qualified subject, when the scope has one. */
  userId?: string;
  /** `agent_id`: the company-qualified agent, when the scope has one. */
  agentId?: string;
  /** `run_id`: the company-qualified run, or session when there is no run. */
  runId?: string;
}

/**
 * The entity ids a write sends. They give mem0's own features (profiles, the dashboard,
 * extraction's merge step) their meaning; isolation never relies on them, because on the
 * extraction path a fact keeps `user_id` or `agent_id`, never both.
 */
export function toMem0EntityIds(scope: MemoryScope): Mem0EntityIds {
  const ids: Mem0EntityIds = { appId: scope.companyId };
  if (scope.subjectId !== undefined) ids.userId = qualifiedEntityId(scope.companyId, scope.subjectId);
  if (scope.agentId !== undefined) ids.agentId = qualifiedEntityId(scope.companyId, scope.agentId);
  const run = scope.runId ?? scope.sessionKey;
  if (run !== undefined) ids.runId = qualifiedEntityId(scope.companyId, run);
  return ids;
}

/** The metadata keys that record the scope of a write. */
export function toScopeMetadata(scope: MemoryScope): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const field of scopeFields) {
    const value = scope[field];
    if (value !== undefined) metadata[mem0ScopeMetadataKeys[field]] = value;
  }
  return metadata;
}

/** One clause of a mem0 `filters.AND`. */
export type Mem0FilterClause = Record<string, unknown>;

/**
 * The filter clauses of a read: `app_id` for the company, and one metadata equality per
 * other scope field that is set. Unset fields do not constrain, as the contract says.
 * Only `AND` is used: mem0 silently drops an `OR` that sits beside an `AND`.
 */
export function toScopeFilterClauses(scope: MemoryScope): Mem0FilterClause[] {
  const clauses: Mem0FilterClause[] = [{ app_id: scope.companyId }];
  for (const field of belowCompany) {
    const value = scope[field];
    if (value !== undefined) clauses.push({ metadata: { [mem0ScopeMetadataKeys[field]]: value } });
  }
  return clauses;
}

/**
 * Rebuilds the scope a memory was written under from its `app_id` and metadata. The keys
 * are spelled out because this runs for every record of every page; the scope-mapping
 * tests round-trip every field of `mem0ScopeMetadataKeys`.
 */
export function fromMem0Scope(appId: string, metadata: Record<string, unknown>): MemoryScope {
  const scope: MemoryScope = { companyId: appId };
  const {
    memplane_agent: agentId,
    memplane_project: projectId,
    memplane_issue: issueId,
    memplane_run: runId,
    memplane_subject: subjectId,
    memplane_session: sessionKey,
    memplane_namespace: namespace,
  } = metadata;
  if (typeof agentId === 'string') scope.agentId = agentId;
  if (typeof projectId === 'string') scope.projectId = projectId;
  if (typeof issueId === 'string') scope.issueId = issueId;
  if (typeof runId === 'string') scope.runId = runId;
  if (typeof subjectId === 'string') scope.subjectId = subjectId;
  if (typeof sessionKey === 'string') scope.sessionKey = sessionKey;
  if (typeof namespace === 'string') scope.namespace = namespace;
  return scope;
}
