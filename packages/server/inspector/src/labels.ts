import type { MemorySourceRef } from './api/types';

/** Flags whose words need more than splitting the camelCase name. */
const capabilityWords: Record<string, string> = {
  providerManagedExtraction: 'Provider-managed extraction',
  providerNativeBrowse: 'Provider-native browsing',
};

/** A capability flag in words, such as `listExtractionJobs` → `List extraction jobs`; the flag stays the tooltip. */
export function capabilityLabel(flag: string): string {
  const known = capabilityWords[flag];
  if (known !== undefined) return known;
  const words = flag
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The binding key the service's counts and metrics give the operations that failed before a
 * binding was resolved (refused by the policy, invalid, or naming no enabled binding). No
 * binding can have it: a key may not hold parentheses.
 */
export const unresolvedBindingKey = '(unresolved)';

/** How the inspector names that group, so it does not read as a broken binding. */
export const unresolvedBindingLabel = 'Refused before a binding was chosen';

/** Says what the group holds, for its tooltip. */
export const unresolvedBindingHint =
  'Calls the service refused before it chose a binding: refused by the policy, invalid, or naming no enabled binding. The API reports them under the binding key (unresolved).';

/** A binding key of the counts and metrics as people read it. */
export function bindingGroupLabel(bindingKey: string): string {
  return bindingKey === unresolvedBindingKey ? unresolvedBindingLabel : bindingKey;
}

const kindWords: Record<string, string> = {
  issue_comment: 'issue comment',
  issue_document: 'issue document',
  manual_note: 'manual note',
  external_document: 'external document',
};

/** The field that names a source of each kind: when it is there, the kind needs no words of its own. */
const namingField: Partial<Record<string, keyof MemorySourceRef>> = {
  issue: 'issueId',
  issue_comment: 'commentId',
  issue_document: 'documentKey',
  run: 'runId',
  activity: 'activityId',
};

/**
 * Describes a source in words, each kind named once: `run run-77`, `issue ISS-7 · comment c-42`,
 * `manual note`, `external document https://…`.
 */
export function describeSource(source: MemorySourceRef | undefined): string {
  if (source === undefined) return '—';
  const parts: string[] = [];
  if (source.issueId !== undefined) parts.push(`issue ${source.issueId}`);
  if (source.commentId !== undefined) parts.push(`comment ${source.commentId}`);
  if (source.documentKey !== undefined) parts.push(`document ${source.documentKey}`);
  if (source.runId !== undefined) parts.push(`run ${source.runId}`);
  if (source.activityId !== undefined) parts.push(`activity ${source.activityId}`);
  const kind = kindWords[source.kind] ?? source.kind;
  if (source.externalRef !== undefined) parts.push(source.kind === 'external_document' ? `${kind} ${source.externalRef}` : source.externalRef);
  const field = namingField[source.kind];
  const named = (field !== undefined && source[field] !== undefined) || (source.kind === 'external_document' && source.externalRef !== undefined);
  return (named ? parts : [kind, ...parts]).join(' · ');
}
