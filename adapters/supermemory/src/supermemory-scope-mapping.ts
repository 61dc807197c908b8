import type { MemoryScope, MemoryScopeField } from '@memplane/core';

/**
 * The metadata key of each scope field. `companyId` is stored too, although the container
 * tag already partitions by company, so every returned record can be checked on its own.
 */
export const supermemoryScopeKeys = {
  companyId: 'mp_companyId',
  agentId: 'mp_agentId',
  projectId: 'mp_projectId',
  issueId: 'mp_issueId',
  runId: 'mp_runId',
  subjectId: 'mp_subjectId',
  sessionKey: 'mp_sessionKey',
  namespace: 'mp_namespace',
} as const satisfies Record<MemoryScopeField, string>;

const scopeFields = Object.keys(supermemoryScopeKeys) as MemoryScopeField[];
const narrowingFields = Object.entries(supermemoryScopeKeys).filter(([field]) => field !== 'companyId') as Array<
  [Exclude<MemoryScopeField, 'companyId'>, string]
>;

/** One leaf of Supermemory's metadata filter grammar. */
export interface SupermemoryFilterCondition {
  key: string;
  value: string;
  filterType?: 'metadata';
}

/** The `{ AND: [...] }` filter Supermemory's search and list endpoints take. */
export interface SupermemoryFilters {
  AND: SupermemoryFilterCondition[];
}

/** The metadata entries that record a scope on a write. */
export function scopeToMetadata(scope: MemoryScope): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const field of scopeFields) {
    const value = scope[field];
    if (value !== undefined) metadata[supermemoryScopeKeys[field]] = value;
  }
  return metadata;
}

/** The filter conditions of a scope: one equality per field the request sets, `companyId` included. */
export function scopeToConditions(scope: MemoryScope): SupermemoryFilterCondition[] {
  const conditions: SupermemoryFilterCondition[] = [];
  for (const field of scopeFields) {
    const value = scope[field];
    if (value !== undefined) conditions.push({ key: supermemoryScopeKeys[field], value });
  }
  return conditions;
}

/** The scope a record was written under, read back from its metadata; undefined when it carries no company. */
export function scopeFromMetadata(metadata: Record<string, unknown>): MemoryScope | undefined {
  const companyId = metadata[supermemoryScopeKeys.companyId];
  if (typeof companyId !== 'string') return undefined;
  const scope: MemoryScope = { companyId };
  for (const [field, key] of narrowingFields) {
    const value = metadata[key];
    if (typeof value === 'string') scope[field] = value;
  }
  return scope;
}

/** Whether the scope narrows below the company, so the container tag alone does not decide visibility. */
export function narrowsBelowCompany(scope: MemoryScope): boolean {
  return scopeFields.some((field) => field !== 'companyId' && scope[field] !== undefined);
}
