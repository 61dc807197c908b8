import {
  parseInput,
  UnsupportedCapabilityError,
  type MemoryAdapter,
  type MemoryAdapterCapabilities,
  type MemoryCaptureResult,
  type MemoryContextBundle,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryHookContext,
  type MemoryListPage,
  type MemoryProfile,
  type MemoryRecordWriteResult,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import { toJobEntry } from '../jobs/extraction-job-entries';
import { scheduleExtractionPoll } from '../queue/extraction-poll-schedule';
import { acceptedRecords, recordBytes, reserveQuota, underQuota } from '../quota/binding-quota';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryCallContext } from './call-context';
import { guardJobs, guardSnippet, guardSnippets } from './result-scope-guard';
import { runOperation, type MemoryOperationReceipt } from './run-operation';
import * as requests from './runtime-requests';

/** A result of the service: the adapter's result plus the operation receipt. */
export type MemoryServiceResult<Result> = Result & MemoryOperationReceipt;

export function requireCapability(adapter: MemoryAdapter, flag: keyof MemoryAdapterCapabilities, operation: string): void {
  // Adapters built with defineMemoryAdapter check this themselves; plugin adapters may not.
  if (adapter.capabilities?.[flag] !== true) throw new UnsupportedCapabilityError({ capability: operation, provider: adapter.key });
}

const idsOf = (snippets: MemorySnippet[]) => snippets.map((snippet) => snippet.handle.providerRecordId);
const warningsOf = (result: { warnings?: MemoryWarning[] }): MemoryWarning[] => [...(result.warnings ?? [])];

/**
 * The record operations of one caller: capture, upsertRecords, query, list, get, forget,
 * correct, profile. Operations run for a hook delivery (`origin.hook`) are logged with it.
 */
export function createRecordOperations(internals: ServiceInternals, context: MemoryCallContext, origin: { hook?: MemoryHookContext } = {}) {
  const scopeFields = (request: { scope?: requests.MemoryServiceScope }) => ({
    scope: request.scope ?? {},
    namedCompanyIds: [request.scope?.companyId],
    ...(origin.hook === undefined ? {} : { hook: origin.hook }),
  });

  return {
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
        async ({ adapter, binding, scope, source, operationId }) => {
          const { bindingKey: _key, scope: _scope, source: _source, ...rest } = valid;
          // A capture must fit under the caps; only the records it returns are counted, its payload bytes split among them.
          const payloadBytes = recordBytes({ text: valid.payload.text ?? (valid.payload.object === undefined ? '' : JSON.stringify(valid.payload.object)) });
          const reservation = await reserveQuota(internals, binding, { records: valid.mode === 'capture_record' ? 1 : 0, bytes: payloadBytes }, 'payload');
          const captured = await underQuota(
            internals,
            reservation,
            () => adapter.capture({ ...rest, bindingKey: binding.key, scope, source: source! }),
            (result) => {
              const handles = result.records ?? [];
              return handles.map((handle) => ({ providerRecordId: handle.providerRecordId, bytes: Math.ceil(payloadBytes / handles.length) }));
            },
          );
          const warnings = warningsOf(captured);
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
        async ({ adapter, binding, scope, source }) => {
          const bytes = valid.records.reduce((total, record) => total + recordBytes(record), 0);
          const reservation = await reserveQuota(internals, binding, { records: valid.records.length, bytes }, 'records');
          const written = await underQuota(
            internals,
            reservation,
            () => adapter.upsertRecords({ records: valid.records, bindingKey: binding.key, scope, ...(source === undefined ? {} : { source }) }),
            (result) => acceptedRecords(valid.records, result),
          );
          const records = written.records ?? [];
          return {
            result: written,
            usage: written.usage,
            warnings: written.warnings,
            recordIds: records.map((handle) => handle.providerRecordId),
            resultCount: records.length,
          };
        },
      );
      return { ...result, ...receipt };
    },

    /** The most relevant records, checked against the scope before they are returned. */
    async query(request: requests.ServiceQueryRequest): Promise<MemoryServiceResult<MemoryContextBundle>> {
      let valid: requests.ServiceQueryRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'query',
        'query',
        () => {
          valid = requests.parseServiceQueryRequest(request);
          return {
            ...scopeFields(valid),
            bindingKey: valid.bindingKey,
            details: { topK: valid.topK ?? 10, intent: valid.intent ?? 'answer', queryCharacters: valid.query.length },
          };
        },
        async ({ adapter, binding, scope }) => {
          const { bindingKey: _key, scope: _scope, ...rest } = valid;
          const bundle = await adapter.query({ ...rest, bindingKey: binding.key, scope });
          const warnings = warningsOf(bundle);
          const { snippets, dropped } = guardSnippets(bundle.snippets, scope, warnings, 'query result');
          return {
            result: { ...bundle, snippets, warnings },
            usage: bundle.usage,
            warnings,
            recordIds: idsOf(snippets),
            resultCount: snippets.length,
            dropped,
          };
        },
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
        async ({ adapter, binding, scope }) => {
          const { bindingKey: _key, scope: _scope, ...rest } = valid;
          const page = await adapter.list({ ...rest, bindingKey: binding.key, scope });
          const warnings = warningsOf(page);
          const { snippets, dropped } = guardSnippets(page.items, scope, warnings, 'list result');
          return { result: { ...page, items: snippets, warnings }, usage: page.usage, warnings, recordIds: idsOf(snippets), resultCount: snippets.length, dropped };
        },
      );
      return { ...result, ...receipt };
    },

    /** One record, or null when it is not visible in the scope. */
    async get(request: requests.ServiceGetRequest): Promise<MemoryServiceResult<{ snippet: MemorySnippet | null; warnings: MemoryWarning[] }>> {
      let valid: requests.ServiceGetRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'get',
        'get',
        () => {
          valid = parseInput(requests.serviceGetRequestSchema, request, 'get request');
          return { ...scopeFields(valid), bindingKey: valid.bindingKey };
        },
        async ({ adapter, scope }) => {
          const warnings: MemoryWarning[] = [];
          const { snippet, dropped } = guardSnippet(await adapter.get(valid.handle, scope), scope, warnings);
          return { result: { snippet, warnings }, warnings, recordIds: [valid.handle.providerRecordId], resultCount: snippet === null ? 0 : 1, dropped };
        },
      );
      return { ...result, ...receipt };
    },

    /** Forgets records; missing and foreign handles are harmless. */
    async forget(request: requests.ServiceForgetRequest): Promise<MemoryServiceResult<MemoryForgetResult>> {
      let valid: requests.ServiceForgetRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'forget',
        'forget',
        () => {
          valid = parseInput(requests.serviceForgetRequestSchema, request, 'forget request');
          return { ...scopeFields(valid), bindingKey: valid.bindingKey, details: { handles: valid.handles.length } };
        },
        async ({ adapter, binding, scope }) => {
          const forgotten = await adapter.forget(valid.handles, scope);
          const ids = valid.handles.filter((handle) => handle.providerKey === adapter.key).map((handle) => handle.providerRecordId);
          // Records a write of this turn added are counted before they are uncounted.
          await internals.usageSettlements.flush();
          await internals.store
            .uncountBindingRecords(binding.companyId, binding.id, ids)
            .catch((error: unknown) => internals.reportBackgroundError(error, 'uncountBindingRecords'));
          return { result: forgotten, usage: forgotten.usage, warnings: forgotten.warnings, recordIds: valid.handles.map((handle) => handle.providerRecordId) };
        },
      );
      return { ...result, ...receipt };
    },

    /** Corrects a record. Needs the `correction` capability. */
    async correct(request: requests.ServiceCorrectRequest): Promise<MemoryServiceResult<MemoryCorrectionResult>> {
      let valid: requests.ServiceCorrectRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'correct',
        'correct',
        () => {
          valid = parseInput(requests.serviceCorrectRequestSchema, request, 'correct request');
          return { ...scopeFields(valid), bindingKey: valid.bindingKey, details: { reason: valid.patch.reason !== undefined } };
        },
        async ({ adapter, binding, scope }) => {
          requireCapability(adapter, 'correction', 'correct');
          // With new text the record's size is known: it replaces the counted one, or a superseding version is counted.
          const text = valid.patch.text;
          const bytes = text === undefined ? 0 : recordBytes({ text, summary: valid.patch.summary, metadata: valid.patch.metadata });
          const reservation = await reserveQuota(internals, binding, { records: 0, bytes }, 'patch');
          const corrected = await underQuota(
            internals,
            reservation,
            () => adapter.correct(valid.handle, valid.patch, scope),
            (result) => (text === undefined ? [] : [{ providerRecordId: result.record.providerRecordId, bytes }]),
          );
          const ids = [valid.handle.providerRecordId, corrected.record.providerRecordId];
          return { result: corrected, usage: corrected.usage, warnings: corrected.warnings, recordIds: [...new Set(ids)] };
        },
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
        async ({ adapter, scope }) => {
          requireCapability(adapter, 'profile', 'profile');
          const profile = await adapter.profile(scope);
          const warnings = warningsOf(profile);
          if (profile.items === undefined) return { result: { ...profile, warnings }, usage: profile.usage, warnings };
          const { snippets, dropped } = guardSnippets(profile.items, scope, warnings, 'profile result');
          return { result: { ...profile, items: snippets, warnings }, usage: profile.usage, warnings, recordIds: idsOf(snippets), resultCount: snippets.length, dropped };
        },
      );
      return { ...result, ...receipt };
    },
  };
}
