import {
  defineMemoryAdapter,
  findScopeViolation,
  memoryAdapterImplementationOf,
  memoryScopeFields,
  type MemoryAdapter,
  type MemoryAdapterImplementation,
  type MemoryScope,
  type MemorySnippet,
} from '@memplane/core';
import { fail, preview } from './assertions';

/** A record an adapter returned outside the scope it was asked for. */
export interface ScopeViolation {
  /** The operation that returned it: `query`, `list`, `get` or `profile`. */
  operation: 'query' | 'list' | 'get' | 'profile';
  /** The scope the request asked for. */
  scope: MemoryScope;
  /** The record as the adapter returned it. */
  record: unknown;
  /** Why it is outside the scope, naming each mismatched field with the value requested and the value the record has. */
  reason: string;
  /** Whether `defineMemoryAdapter` dropped it before the caller saw it. */
  droppedByWrapper: boolean;
}

/** Why a returned value is outside `scope`, or undefined. A malformed value is the wrapper's to refuse, not this check's. */
function violationOf(value: unknown, scope: MemoryScope): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Partial<MemorySnippet>;
  const hasScope = typeof candidate.scope === 'object' && candidate.scope !== null;
  const hasSource = typeof candidate.source === 'object' && candidate.source !== null;
  if (!hasScope && !hasSource) return undefined;
  try {
    return findScopeViolation(candidate as MemorySnippet, scope);
  } catch {
    return undefined;
  }
}

/**
 * The fields that put a record outside `scope`, each with the value requested and the value the
 * record has: `agentId: requested "agent-b", record has "agent-a"`.
 */
export function scopeMismatches(record: unknown, scope: MemoryScope): string[] {
  if (typeof record !== 'object' || record === null) return [];
  const candidate = record as { scope?: unknown; source?: unknown };
  const has = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));
  const mismatches: string[] = [];
  const source = typeof candidate.source === 'object' && candidate.source !== null ? (candidate.source as Record<string, unknown>) : undefined;
  if (source !== undefined && source.companyId !== scope.companyId) {
    mismatches.push(`source.companyId: requested ${JSON.stringify(scope.companyId)}, record has ${has(source.companyId)}`);
  }
  const recordScope = typeof candidate.scope === 'object' && candidate.scope !== null ? (candidate.scope as Record<string, unknown>) : undefined;
  if (recordScope !== undefined) {
    for (const field of memoryScopeFields) {
      const requested = scope[field];
      if (requested !== undefined && recordScope[field] !== requested) {
        mismatches.push(`${field}: requested ${JSON.stringify(requested)}, record has ${has(recordScope[field])}`);
      }
    }
  }
  return mismatches;
}

function arrayField(result: unknown, field: string): unknown[] {
  const value = typeof result === 'object' && result !== null ? (result as Record<string, unknown>)[field] : undefined;
  return Array.isArray(value) ? value : [];
}

/**
 * Watches what adapters return from the reads that carry a scope (query, list, get, profile)
 * and records every record outside the requested scope. An adapter from `defineMemoryAdapter`
 * is watched below the wrapper: its implementation is wrapped again around a recording copy,
 * so a record the wrapper drops is still seen. Any other adapter is watched from outside.
 */
export class ScopeAudit {
  /** Every violation seen so far, in order. */
  readonly violations: ScopeViolation[] = [];

  private record(operation: ScopeViolation['operation'], scope: MemoryScope, values: unknown[], droppedByWrapper: boolean): void {
    for (const value of values) {
      const reason = violationOf(value, scope);
      if (reason === undefined) continue;
      const mismatches = scopeMismatches(value, scope);
      this.violations.push({ operation, scope, record: value, reason: mismatches.length === 0 ? reason : `${reason}: ${mismatches.join('; ')}`, droppedByWrapper });
    }
  }

  /** The adapter the rule should use: the same behaviour, with its reads recorded. */
  watch(adapter: MemoryAdapter): MemoryAdapter {
    const implementation = memoryAdapterImplementationOf(adapter);
    return implementation === undefined ? this.watchFromOutside(adapter) : defineMemoryAdapter(this.recordingCopy(implementation));
  }

  private recordingCopy(inner: MemoryAdapterImplementation): MemoryAdapterImplementation {
    const copy: MemoryAdapterImplementation = {
      key: inner.key,
      capabilities: inner.capabilities,
      capture: (request) => inner.capture(request),
      upsertRecords: (request) => inner.upsertRecords(request),
      query: async (request) => {
        const result = await inner.query(request);
        this.record('query', request.scope, arrayField(result, 'snippets'), true);
        return result;
      },
      list: async (request) => {
        const result = await inner.list(request);
        this.record('list', request.scope, arrayField(result, 'items'), true);
        return result;
      },
      get: async (handle, scope) => {
        const result = await inner.get(handle, scope);
        this.record('get', scope, [result], true);
        return result;
      },
      forget: (handles, scope) => inner.forget(handles, scope),
    };
    const { correct, profile, getExtractionJob, listExtractionJobs, retryExtractionJob, explain } = inner;
    if (correct !== undefined) copy.correct = (handle, patch, scope) => correct.call(inner, handle, patch, scope);
    if (profile !== undefined) {
      copy.profile = async (scope) => {
        const result = await profile.call(inner, scope);
        this.record('profile', scope, arrayField(result, 'items'), true);
        return result;
      };
    }
    if (getExtractionJob !== undefined) copy.getExtractionJob = (id, scope) => getExtractionJob.call(inner, id, scope);
    if (listExtractionJobs !== undefined) copy.listExtractionJobs = (scope, cursor) => listExtractionJobs.call(inner, scope, cursor);
    if (retryExtractionJob !== undefined) copy.retryExtractionJob = (id, scope) => retryExtractionJob.call(inner, id, scope);
    if (explain !== undefined) copy.explain = (result, scope) => explain.call(inner, result, scope);
    return copy;
  }

  private watchFromOutside(adapter: MemoryAdapter): MemoryAdapter {
    const watched: Partial<MemoryAdapter> = {
      query: async (request) => {
        const result = await adapter.query(request);
        this.record('query', request.scope, arrayField(result, 'snippets'), false);
        return result;
      },
      list: async (request) => {
        const result = await adapter.list(request);
        this.record('list', request.scope, arrayField(result, 'items'), false);
        return result;
      },
      get: async (handle, scope) => {
        const result = await adapter.get(handle, scope);
        this.record('get', scope, [result], false);
        return result;
      },
      profile: async (scope) => {
        const result = await adapter.profile(scope);
        this.record('profile', scope, arrayField(result, 'items'), false);
        return result;
      },
    };
    // A proxy keeps every other member as the adapter has it; methods run with the adapter itself
    // as `this`, so a class with private fields works through it.
    return new Proxy(adapter, {
      get: (target, property) => {
        if (typeof property === 'string' && property in watched) return watched[property as keyof typeof watched];
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...parameters: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /**
   * Fails the rule when an adapter returned a record outside the requested scope, naming the
   * rule, the scope asked for and the record returned. `ruleError` is what the rule itself threw.
   */
  assertNoViolation(ruleId: string, ruleError?: unknown): void {
    const [first] = this.violations;
    if (first === undefined) return;
    const dropped = first.droppedByWrapper ? ' defineMemoryAdapter dropped it, but the adapter must not return it.' : '';
    const more = this.violations.length > 1 ? ` (${this.violations.length - 1} more such records in this rule)` : '';
    const violation = `Rule ${ruleId}: ${first.operation} for scope ${preview(first.scope)} returned a record outside it (${first.reason}): ${preview(first.record)}.${dropped}${more}`;
    // The rule's own message, when it has one, says what the rule expected; the violation follows.
    const own = ruleError instanceof Error && ruleError.name === 'AssertionError' ? `${ruleError.message} ` : '';
    fail(`${own}${violation}`);
  }
}
