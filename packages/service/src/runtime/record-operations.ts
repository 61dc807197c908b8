import {
  parseInput,
  UnsupportedCapabilityError,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
  type MemoryCaptureResult,
  type MemoryContextBundle,
  type MemoryExplanation,
  type MemoryHookContext,
  type MemoryListPage,
  type MemoryProfile,
  type MemoryRecordWriteResult,
  type MemorySnippet,
} from '@memplane/core';
import { toJobEntry } from '../jobs/extraction-job-entries';
import { scheduleExtractionPoll } from '../queue/extraction-poll-schedule';
import { acceptedRecords, recordBytes, reserveQuota, underQuota } from '../quota/binding-quota';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryCallContext } from './call-context';
import { guardJobs, guardSnippets, guardSummary } from './result-scope-guard';
import { runOperation, type MemoryOperationReceipt, type OperationOptions } from './run-operation';
import { registerHandles } from './handle-ownership';
import { createHandleOperations } from './record-handle-operations';
import { checkProviderResult } from './provider-results';
import { explainFilteredBundle } from './query-explanation';
import * as requests from './runtime-requests';

/** A result of the service: the adapter's result plus the operation receipt. */
export type MemoryServiceResult<Result> = Result & MemoryOperationReceipt;

export function requireCapability(adapter: MemoryAdapter, flag: keyof MemoryAdapterCapabilities, operation: string): void {
  // Adapters built with defineMemoryAdapter check this themselves; plugin adapters may not.
  if (adapter.capabilities?.[flag] !== true) throw new UnsupportedCapabilityError({ capability: operation, provider: adapter.key });
}

const idsOf = (snippets: MemorySnippet[]) => snippets.map((snippet) => snippet.handle.providerRecordId);

/**
 * The record operations of one caller: capture, upsertRecords, query, list, profile, and the
 * handle operations (get, forget, correct). Operations run for a hook delivery (`origin.hook`)
 * are logged with it, under the delivery's deadline (`origin.deadlineMs`).
 */
export function createRecordOperations(
  internals: ServiceInternals,
  context: MemoryCallContext,
  origin: { hook?: MemoryHookContext } & OperationOptions = {},
) {
  const options: OperationOptions = {
    ...(origin.deadlineMs === undefined ? {} : { deadlineMs: origin.deadlineMs }),
    ...(origin.readingAgentId === undefined ? {} : { readingAgentId: origin.readingAgentId }),
    ...(origin.onOperationId === undefined ? {} : { onOperationId: origin.onOperationId }),
    ...(origin.logScope === undefined ? {} : { logScope: origin.logScope }),
  };
  const scopeFields = (request: { scope?: requests.MemoryServiceScope }) => ({
    scope: request.scope ?? {},
    namedCompanyIds: [request.scope?.companyId],
    ...(origin.hook === undefined ? {} : { hook: origin.hook }),
  });

  return {
    ...createHandleOperations(internals, context, origin),

    /** Captures raw residue; extraction jobs it starts are kept by the service. */
    async capture(request: requests.ServiceCaptureRequest): Promise<MemoryServiceResult<MemoryCaptureResult>> {
      let valid: requests.ServiceCaptureRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'capture',
        'capture',
        () => {
          valid = parseInput(requests.serviceCaptureRequestSchema, request, 'capture request');
          return {
            ...scopeFields(valid),
            bindingKey: valid.bindingKey,
            source: valid.source,
            hook: valid.hook ?? origin.hook,
            details: { mode: valid.mode ?? 'capture_residue', payloadCharacters: valid.payload.text?.length ?? 0 },
          };
        },
        async ({ adapter, binding, scope, source, operationId, call }) => {
          const { bindingKey: _key, scope: _scope, source: _source, ...rest } = valid;
          // A capture must fit under the caps; only the records it returns are counted, its payload bytes split among them.
          const payloadBytes = recordBytes({ text: valid.payload.text ?? (valid.payload.object === undefined ? '' : JSON.stringify(valid.payload.object)) });
          const reservation = await reserveQuota(internals, binding, { records: valid.mode === 'capture_record' ? 1 : 0, bytes: payloadBytes }, 'payload');
          const captured = await underQuota(
            internals,
            reservation,
            async () => checkProviderResult('capture', await call('capture', () => adapter.capture({ ...rest, bindingKey: binding.key, scope, source: source! })), binding.providerId),
            (result) => {
              const handles = result.records ?? [];
              return handles.map((handle) => ({ providerRecordId: handle.providerRecordId, bytes: Math.ceil(payloadBytes / handles.length) }));
            },
          );
          const warnings = captured.warnings;
          await registerHandles(internals, binding, scope, captured.records ?? []);
          const { jobs, dropped } = guardJobs(captured.jobs, scope, warnings);
          const now = internals.now();
          await internals.store.upsertExtractionJobs(
            jobs.map((job) =>
              toJobEntry(job, { binding, scope, operationId, hookKind: valid.hook?.hookKind, source }, now, internals.createId),
            ),
          );
          if (jobs.some((job) => job.status === 'queued' || job.status === 'running')) await scheduleExtractionPoll(internals, binding);
          const records = captured.records ?? [];
          return {
            result: { ...captured, jobs, warnings, ...(captured.records === undefined ? {} : { records }) },
            usage: captured.usage,
            warnings,
            recordIds: [...records.map((handle) => handle.providerRecordId), ...jobs.map((job) => job.providerJobId)],
            resultCount: records.length + jobs.length,
            dropped,
            extractionFailures: jobs.filter((job) => job.status === 'failed').length,
          };
        },
        options,
      );
      return { ...result, ...receipt };
    },

    /** Writes curated records. */
    async upsertRecords(request: requests.ServiceRecordWriteRequest): Promise<MemoryServiceResult<MemoryRecordWriteResult>> {
      let valid: requests.ServiceRecordWriteRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'record_upsert',
        'upsertRecords',
        () => {
          valid = parseInput(requests.serviceRecordWriteRequestSchema, request, 'upsertRecords request');
          return { ...scopeFields(valid), bindingKey: valid.bindingKey, source: valid.source, details: { records: valid.records.length } };
        },
        async ({ adapter, binding, scope, source, call }) => {
          const bytes = valid.records.reduce((total, record) => total + recordBytes(record), 0);
          const reservation = await reserveQuota(internals, binding, { records: valid.records.length, bytes }, 'records');
          const written = await underQuota(
            internals,
            reservation,
            async () =>
              checkProviderResult(
                'upsertRecords',
                await call('upsertRecords', () =>
                  adapter.upsertRecords({ records: valid.records, bindingKey: binding.key, scope, ...(source === undefined ? {} : { source }) }),
                ),
                binding.providerId,
              ),
            (result) => acceptedRecords(valid.records, result),
          );
          const records = written.records ?? [];
          await registerHandles(internals, binding, scope, records);
          return {
            result: written,
            usage: written.usage,
            warnings: written.warnings,
            recordIds: records.map((handle) => handle.providerRecordId),
            resultCount: records.length,
          };
        },
        options,
      );
      return { ...result, ...receipt };
    },

    /** The most relevant records, checked against the scope before they are returned. */
    async query(request: requests.ServiceQueryRequest): Promise<MemoryServiceResult<MemoryContextBundle & { explanation?: MemoryExplanation }>> {
      let valid: requests.ServiceQueryRequest;
      let details: Record<string, unknown> = {};
      const { result, receipt } = await runOperation(
        internals,
        context,
        'query',
        'query',
        () => {
          valid = requests.parseServiceQueryRequest(request);
          details = { topK: valid.topK ?? 10, intent: valid.intent ?? 'answer', queryCharacters: valid.query.length };
          return { ...scopeFields(valid), bindingKey: valid.bindingKey, details };
        },
        async ({ adapter, binding, scope, call, placement }) => {
          const { bindingKey: _key, scope: _scope, explain, ...rest } = valid;
          const { profileSummary, ...bundle } = checkProviderResult('query', await call('query', () => adapter.query({ ...rest, bindingKey: binding.key, scope })), binding.providerId);
          const warnings = bundle.warnings;
          const { snippets, dropped } = await guardSnippets(bundle.snippets, placement, warnings, `${binding.providerId} query result`, 'snippets');
          const summary = guardSummary(profileSummary, internals.trustsSummariesOf(binding), warnings);
          const filtered = { snippets, ...(summary === undefined ? {} : { profileSummary: summary }) };
          // Only the bundle the caller gets is explained, never one the caller supplied.
          const explained = explain === true ? await explainFilteredBundle(adapter, binding.providerId, filtered, scope, call, warnings) : undefined;
          // The log entry is written from these details after this body returns.
          if (explained?.explanation !== undefined) details.explained = true;
          return {
            result: { ...bundle, ...filtered, warnings, ...(explained?.explanation === undefined ? {} : { explanation: explained.explanation }) },
            usage: explained === undefined ? bundle.usage : [...bundle.usage, ...explained.usage],
            warnings,
            recordIds: idsOf(snippets),
            resultCount: snippets.length,
            dropped,
          };
        },
        options,
      );
      return { ...result, ...receipt };
    },

    /** One page of the scope's records, checked against the scope. */
    async list(request: requests.ServiceListRequest = {}): Promise<MemoryServiceResult<MemoryListPage>> {
      let valid: requests.ServiceListRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'list',
        'list',
        () => {
          valid = requests.parseServiceListRequest(request);
          return { ...scopeFields(valid), bindingKey: valid.bindingKey, details: { limit: valid.limit ?? 50, cursor: valid.cursor !== undefined } };
        },
        async ({ adapter, binding, scope, call, placement }) => {
          const { bindingKey: _key, scope: _scope, ...rest } = valid;
          const page = checkProviderResult('list', await call('list', () => adapter.list({ ...rest, bindingKey: binding.key, scope })), binding.providerId);
          const warnings = page.warnings;
          const { snippets, dropped } = await guardSnippets(page.items, placement, warnings, `${binding.providerId} list result`, 'items');
          return { result: { ...page, items: snippets, warnings }, usage: page.usage, warnings, recordIds: idsOf(snippets), resultCount: snippets.length, dropped };
        },
        options,
      );
      return { ...result, ...receipt };
    },

    /** The scope's profile summary. Needs the `profile` capability. */
    async profile(request: requests.ServiceProfileRequest = {}): Promise<MemoryServiceResult<MemoryProfile>> {
      let valid: requests.ServiceProfileRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'profile',
        'profile',
        () => {
          valid = parseInput(requests.serviceProfileRequestSchema, request, 'profile request');
          return { ...scopeFields(valid), bindingKey: valid.bindingKey };
        },
        async ({ adapter, binding, scope, call, placement }) => {
          requireCapability(adapter, 'profile', 'profile');
          const profile = checkProviderResult('profile', await call('profile', () => adapter.profile(scope)), binding.providerId);
          const warnings = profile.warnings;
          const summary = guardSummary(profile.summary, internals.trustsSummariesOf(binding), warnings) ?? '';
          const { items, ...rest } = profile;
          if (items === undefined) return { result: { ...rest, summary, warnings }, usage: profile.usage, warnings };
          const { snippets, dropped } = await guardSnippets(items, placement, warnings, `${binding.providerId} profile result`, 'items');
          return {
            result: { ...rest, summary, items: snippets, warnings },
            usage: profile.usage,
            warnings,
            recordIds: idsOf(snippets),
            resultCount: snippets.length,
            dropped,
          };
        },
        options,
      );
      return { ...result, ...receipt };
    },
  };
}
