import type { MemoryScope } from '../memory-adapter/v1/memory-adapter-v1-scope';
import type { MemorySnippet } from '../memory-adapter/v1/memory-adapter-v1-records';
import type { MemorySourceRef } from '../memory-adapter/v1/memory-adapter-v1-source';
import { copyScopeFields } from './copy-scope-fields';
import { isJsonObject } from './json-value-schema';
import { memorySourceKindSchema } from './source-schema';

/*
 * Snippets are the bulk of every result (a list page holds up to 200), so they get a
 * hand-written check that accepts exactly what `memorySnippetSchema` accepts and copies
 * only the known keys, as zod would. When it says no, the caller runs the zod schema to
 * produce the error with its path. A test holds the two to agreement on valid and broken inputs.
 */

const sourceKinds: ReadonlySet<string> = new Set(memorySourceKindSchema.options);
const invalid = Symbol('invalid');

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

// Source fields are spelled out rather than looped over: named reads stay monomorphic, and
// this runs for every snippet. The agreement test covers every scope and source field.

function copyScope(value: unknown): MemoryScope | undefined | typeof invalid {
  if (value === undefined) return undefined;
  if (!isObject(value)) return invalid;
  const companyId = value.companyId;
  if (typeof companyId !== 'string') return invalid;
  return copyScopeFields(value, companyId, optionalString) ?? invalid;
}

function copySource(value: unknown): MemorySourceRef | undefined | typeof invalid {
  if (value === undefined) return undefined;
  if (!isObject(value)) return invalid;
  const { kind, companyId, issueId, commentId, documentKey, runId, activityId, externalRef } = value;
  if (typeof kind !== 'string' || !sourceKinds.has(kind) || typeof companyId !== 'string') return invalid;
  if (
    !optionalString(issueId) ||
    !optionalString(commentId) ||
    !optionalString(documentKey) ||
    !optionalString(runId) ||
    !optionalString(activityId) ||
    !optionalString(externalRef)
  ) {
    return invalid;
  }
  const source = { kind, companyId } as MemorySourceRef;
  if (issueId !== undefined) source.issueId = issueId as string;
  if (commentId !== undefined) source.commentId = commentId as string;
  if (documentKey !== undefined) source.documentKey = documentKey as string;
  if (runId !== undefined) source.runId = runId as string;
  if (activityId !== undefined) source.activityId = activityId as string;
  if (externalRef !== undefined) source.externalRef = externalRef as string;
  return source;
}

/**
 * A checked copy of a snippet with only the contract's keys, or undefined when it is malformed
 * or throws while it is read (the zod schema, run next, names the field). Each field is read once.
 */
export function copyValidSnippet(value: unknown): MemorySnippet | undefined {
  try {
    return copySnippet(value);
  } catch {
    return undefined;
  }
}

function copySnippet(value: unknown): MemorySnippet | undefined {
  if (!isObject(value)) return undefined;
  const { text, handle, score, rawScore, summary, metadata, createdAt, updatedAt } = value;
  if (typeof text !== 'string' || !isObject(handle)) return undefined;
  const { providerKey, providerRecordId } = handle;
  if (typeof providerKey !== 'string' || typeof providerRecordId !== 'string') return undefined;
  if (score !== undefined && !(typeof score === 'number' && Number.isFinite(score))) return undefined;
  if (rawScore !== undefined && !(typeof rawScore === 'number' && Number.isFinite(rawScore))) return undefined;
  if (!optionalString(summary) || !optionalString(createdAt) || !optionalString(updatedAt)) return undefined;
  if (metadata !== undefined && !isJsonObject(metadata)) return undefined;
  const source = copySource(value.source);
  const scope = copyScope(value.scope);
  if (source === invalid || scope === invalid) return undefined;
  const snippet: MemorySnippet = {
    handle: { providerKey, providerRecordId },
    text,
  };
  if (score !== undefined) snippet.score = score;
  if (rawScore !== undefined) snippet.rawScore = rawScore;
  if (summary !== undefined) snippet.summary = summary as string;
  if (source !== undefined) snippet.source = source;
  if (metadata !== undefined) snippet.metadata = metadata;
  if (scope !== undefined) snippet.scope = scope;
  if (createdAt !== undefined) snippet.createdAt = createdAt as string;
  if (updatedAt !== undefined) snippet.updatedAt = updatedAt as string;
  return snippet;
}
