import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';

/**
 * Copies the scope fields below `companyId` when each passes `isValidField` (which must accept
 * undefined), or returns undefined when one does not. The fields are spelled out: named reads
 * stay monomorphic, and the request and result fast paths run this for every scope they check.
 * Their agreement tests cover every field of `memoryScopeFields`.
 */
export function copyScopeFields(
  value: Record<string, unknown>,
  companyId: string,
  isValidField: (field: unknown) => boolean,
): MemoryScope | undefined {
  const { agentId, projectId, issueId, runId, subjectId, sessionKey, namespace } = value;
  if (
    !isValidField(agentId) ||
    !isValidField(projectId) ||
    !isValidField(issueId) ||
    !isValidField(runId) ||
    !isValidField(subjectId) ||
    !isValidField(sessionKey) ||
    !isValidField(namespace)
  ) {
    return undefined;
  }
  const scope: MemoryScope = { companyId };
  if (agentId !== undefined) scope.agentId = agentId as string;
  if (projectId !== undefined) scope.projectId = projectId as string;
  if (issueId !== undefined) scope.issueId = issueId as string;
  if (runId !== undefined) scope.runId = runId as string;
  if (subjectId !== undefined) scope.subjectId = subjectId as string;
  if (sessionKey !== undefined) scope.sessionKey = sessionKey as string;
  if (namespace !== undefined) scope.namespace = namespace as string;
  return scope;
}
