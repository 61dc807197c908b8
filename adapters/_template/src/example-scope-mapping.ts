import type { MemoryScope, MemoryScopeField } from '@memplane/core';

/**
 * How each scope field is stored in the Example API. `companyId` is the API's `tenant`,
 * which the API isolates; every other field is a label the API filters on exactly.
 */
export const exampleScopeLabels = {
  agentId: 'agent_id',
  projectId: 'project_id',
  issueId: 'issue_id',
  runId: 'run_id',
  subjectId: 'subject_id',
  sessionKey: 'session_key',
  namespace: 'namespace',
} as const satisfies Record<Exclude<MemoryScopeField, 'companyId'>, string>;

type LabelledField = keyof typeof exampleScopeLabels;

const labelledFields = Object.keys(exampleScopeLabels) as LabelledField[];

/** A scope as the Example API sees it. */
export interface ExampleScope {
  /** The tenant: the scope's `companyId`. */
  tenant: string;
  /** One label per scope field that is set. */
  labels: Record<string, string>;
}

/** Maps a scope to the API's tenant and labels. Writes store them; reads filter on them. */
export function toExampleScope(scope: MemoryScope): ExampleScope {
  const labels: Record<string, string> = {};
  for (const field of labelledFields) {
    const value = scope[field];
    if (value !== undefined) labels[exampleScopeLabels[field]] = value;
  }
  return { tenant: scope.companyId, labels };
}

/** Rebuilds the scope a record was written under from its tenant and labels. Other labels are ignored. */
export function fromExampleScope(tenant: string, labels: Record<string, string>): MemoryScope {
  const scope: MemoryScope = { companyId: tenant };
  for (const field of labelledFields) {
    const value = labels[exampleScopeLabels[field]];
    if (value !== undefined) scope[field] = value;
  }
  return scope;
}

/** Whether the scope narrows below the company, so a call about one record must check its labels first. */
export function narrowsBelowCompany(scope: MemoryScope): boolean {
  return labelledFields.some((field) => scope[field] !== undefined);
}
