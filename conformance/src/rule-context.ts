import type {
  MemoryAdapter,
  MemoryCaptureRequest,
  MemoryCaptureResult,
  MemoryExtractionJob,
  MemoryFaultInjector,
  MemoryRecordHandle,
  MemoryRecordInput,
  MemoryScope,
  MemorySnippet,
  MemorySourceRef,
} from '@memplane/core';
import { conformanceAssertions } from './assertions';
import type { ConformanceOptions } from './conformance-options';
import {
  captureAndSettle,
  listAll,
  pollJobUntilFinal,
  queryByMarker,
  writeRecords,
  type RecordFixtureEnvironment,
  type WriteExtras,
} from './fixtures/record-fixtures';
import { createMarkerFactory, createRuleIdentifiers, type RuleIdentifiers } from './fixtures/rule-identifiers';

/** The binding key every conformance request carries. */
export const conformanceBindingKey = 'conformance';

/** Scope fields other than `companyId`, for building scopes inside the rule's companies. */
export type ScopeFields = Partial<Omit<MemoryScope, 'companyId'>>;

/** Everything a rule gets: a fresh adapter, unique ids, fixture and assertion helpers. */
export interface RuleContext {
  /** A fresh adapter from `createAdapter()`, for this rule only. */
  readonly adapter: MemoryAdapter;
  /** Creates a peer adapter over the same backend, when the options give one. */
  readonly createPeerAdapter?: () => Promise<MemoryAdapter>;
  /** The fault injector, when the options give one. */
  readonly faults?: MemoryFaultInjector;
  /** Waits until earlier writes are visible (the option, or a no-op). */
  waitForConsistency(): Promise<void>;
  /** The binding key to put on requests. */
  readonly bindingKey: string;
  /** Identifiers unique to this rule run. */
  readonly ids: RuleIdentifiers;
  /** A scope in company A with the given extra fields. */
  scope(fields?: ScopeFields): MemoryScope;
  /** A scope in company B with the given extra fields. */
  otherCompanyScope(fields?: ScopeFields): MemoryScope;
  /** A value unique to this rule run, for scope fields such as `projectId`. */
  uniqueValue(label: string): string;
  /** A new unique marker word to put in record text and find the record by. */
  marker(label?: string): string;
  /** A source ref in the scope's company (an `issue_comment` unless overridden). */
  source(scope: MemoryScope, overrides?: Partial<MemorySourceRef>): MemorySourceRef;
  /** Writes records and returns their handles; fails when any was not written. */
  writeRecords(
    scope: MemoryScope,
    records: ReadonlyArray<string | MemoryRecordInput>,
    extras?: WriteExtras,
  ): Promise<MemoryRecordHandle[]>;
  /** Writes one record whose text carries `marker` and returns its handle. */
  writeMarkedRecord(scope: MemoryScope, marker: string, extras?: WriteExtras & Omit<MemoryRecordInput, 'text'>): Promise<MemoryRecordHandle>;
  /** Lists every record of the scope, following cursors. */
  listAll(scope: MemoryScope, options?: { limit?: number; metadataFilter?: Record<string, unknown> }): Promise<MemorySnippet[]>;
  /** Queries with the marker as text; `matching` holds the snippets that carry it. */
  queryByMarker(scope: MemoryScope, marker: string, topK?: number): Promise<{ matching: MemorySnippet[]; all: MemorySnippet[] }>;
  /** Polls an extraction job until it is final (at most 20 polls, never sleeping). */
  pollJobUntilFinal(providerJobId: string, scope: MemoryScope): Promise<MemoryExtractionJob>;
  /** Captures and polls the returned jobs until they are final. */
  captureAndSettle(
    request: Omit<MemoryCaptureRequest, 'bindingKey'>,
  ): Promise<{ result: MemoryCaptureResult; jobs: MemoryExtractionJob[] }>;
  /** The assertion helpers (built on `node:assert/strict`). */
  readonly assert: typeof conformanceAssertions;
  /** The same context (same ids and markers) around another adapter, such as a peer. */
  withAdapter(adapter: MemoryAdapter): RuleContext;
}

/** The text of a record that carries `marker`. */
export function markedText(marker: string): string {
  return `Conformance record ${marker} about the release checklist.`;
}

/** Builds the context of one rule run around a fresh adapter. */
export function createRuleContext(
  adapter: MemoryAdapter,
  options: ConformanceOptions,
  ids: RuleIdentifiers = createRuleIdentifiers(),
  marker: (label?: string) => string = createMarkerFactory(ids.token),
): RuleContext {
  const waitForConsistency = async () => {
    await options.waitForConsistency?.();
  };
  const environment: RecordFixtureEnvironment = { adapter, bindingKey: conformanceBindingKey, waitForConsistency };
  const createPeer = options.createPeerAdapter;
  return {
    adapter,
    ...(createPeer === undefined ? {} : { createPeerAdapter: async () => createPeer() }),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    waitForConsistency,
    bindingKey: conformanceBindingKey,
    ids,
    scope: (fields = {}) => ({ ...fields, companyId: ids.companyId }),
    otherCompanyScope: (fields = {}) => ({ ...fields, companyId: ids.otherCompanyId }),
    uniqueValue: (label) => `conformance-${ids.token}-${label}`,
    marker,
    source: (scope, overrides = {}) => ({
      kind: 'issue_comment',
      issueId: `conformance-${ids.token}-issue`,
      commentId: `conformance-${ids.token}-comment`,
      ...overrides,
      companyId: overrides.companyId ?? scope.companyId,
    }),
    writeRecords: (scope, records, extras) => writeRecords(environment, scope, records, extras),
    async writeMarkedRecord(scope, recordMarker, extras = {}) {
      const { source, ...fields } = extras;
      const [handle] = await writeRecords(
        environment,
        scope,
        [{ ...fields, text: markedText(recordMarker) }],
        source === undefined ? {} : { source },
      );
      return handle as MemoryRecordHandle;
    },
    listAll: (scope, listOptions) => listAll(environment, scope, listOptions),
    queryByMarker: (scope, queryMarker, topK) => queryByMarker(environment, scope, queryMarker, topK),
    pollJobUntilFinal: (providerJobId, scope) => pollJobUntilFinal(environment, providerJobId, scope),
    captureAndSettle: (request) => captureAndSettle(environment, request),
    assert: conformanceAssertions,
    withAdapter: (other) => createRuleContext(other, options, ids, marker),
  };
}
