import {
  findScopeViolation,
  MemoryInvalidResponseError,
  type MemoryExtractionJob,
  type MemoryScope,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';

/** Snippets that passed the check, and how many were dropped. */
export interface GuardedSnippets {
  snippets: MemorySnippet[];
  dropped: number;
}

function isSnippetShaped(value: unknown): value is MemorySnippet {
  if (typeof value !== 'object' || value === null) return false;
  const snippet = value as Partial<MemorySnippet>;
  return (
    typeof snippet.text === 'string' &&
    typeof snippet.handle === 'object' &&
    snippet.handle !== null &&
    typeof snippet.handle.providerRecordId === 'string' &&
    typeof snippet.handle.providerKey === 'string'
  );
}

/**
 * The service's own check of every result, whatever the adapter did: a snippet whose scope or
 * source belongs outside the requested scope is dropped and reported as a `scope_violation`
 * warning, and so is a snippet too malformed to check. Drops the adapter already reported
 * (its own `scope_violation` warnings) are counted too.
 */
export function guardSnippets(
  value: unknown,
  scope: MemoryScope,
  warnings: MemoryWarning[],
  description: string,
): GuardedSnippets {
  if (!Array.isArray(value)) {
    throw new MemoryInvalidResponseError({ message: `Malformed ${description}: expected an array of snippets.` });
  }
  let dropped = 0;
  for (const warning of warnings) if (warning.type === 'scope_violation') dropped += 1;
  const snippets: MemorySnippet[] = [];
  for (const candidate of value as unknown[]) {
    if (!isSnippetShaped(candidate)) {
      warnings.push({ type: 'scope_violation', providerRecordId: '(unreadable)', details: 'a malformed record was dropped unchecked' });
      dropped += 1;
      continue;
    }
    const violation = findScopeViolation(candidate, scope);
    if (violation === undefined) {
      snippets.push(candidate);
    } else {
      warnings.push({ type: 'scope_violation', providerRecordId: candidate.handle.providerRecordId, details: violation });
      dropped += 1;
    }
  }
  return { snippets, dropped };
}

/** Checks one snippet (a `get` result); an out-of-scope one reads as null. */
export function guardSnippet(value: unknown, scope: MemoryScope, warnings: MemoryWarning[]): { snippet: MemorySnippet | null; dropped: number } {
  if (value === null || value === undefined) return { snippet: null, dropped: 0 };
  const { snippets, dropped } = guardSnippets([value], scope, warnings, 'get result');
  return { snippet: snippets[0] ?? null, dropped };
}

/** Drops extraction jobs whose source belongs to another company. */
export function guardJobs(
  jobs: MemoryExtractionJob[] | undefined,
  scope: MemoryScope,
  warnings: MemoryWarning[],
): { jobs: MemoryExtractionJob[]; dropped: number } {
  if (jobs === undefined) return { jobs: [], dropped: 0 };
  if (!Array.isArray(jobs)) throw new MemoryInvalidResponseError({ message: 'Malformed extraction jobs: expected an array.' });
  const kept: MemoryExtractionJob[] = [];
  let dropped = 0;
  for (const job of jobs) {
    if (typeof job !== 'object' || job === null || typeof job.providerJobId !== 'string') {
      throw new MemoryInvalidResponseError({ message: 'Malformed extraction job: providerJobId must be a string.' });
    }
    if (job.source !== undefined && job.source.companyId !== scope.companyId) {
      warnings.push({ type: 'scope_violation', providerRecordId: job.providerJobId, details: 'the job belongs to another company' });
      dropped += 1;
    } else {
      kept.push(job);
    }
  }
  return { jobs: kept, dropped };
}
