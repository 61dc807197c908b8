import {
  MemoryNotFoundError,
  parseInput,
  type MemoryCorrectionResult,
  type MemoryForgetResult,
  type MemoryHookContext,
  type MemoryRecordHandle,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import { recordBytes, reserveQuota, underQuota } from '../quota/binding-quota';
import type { ServiceInternals } from '../service/service-internals';
import { actingAgentOf } from './agent-identity';
import type { MemoryCallContext } from './call-context';
import { notFoundWarnings, ownedHandles, registerHandles, skippedWarnings, unregisterHandles } from './handle-ownership';
import { checkProviderResult } from './provider-results';
import { guardSnippet, placeHandles } from './result-scope-guard';
import { runOperation, type OperationOptions } from './run-operation';
import { requireCapability, type MemoryServiceResult } from './record-operations';
import * as requests from './runtime-requests';

/** The service's forget result: the provider's, with the number of records actually forgotten. */
export type MemoryServiceForgetResult = MemoryForgetResult & {
  /** How many of the named records were forgotten; skipped handles (see `warnings`) are not counted. */
  forgotten: number;
};

/**
 * How many records a forget removed: the distinct handles the provider was asked about, less the
 * ones it reported as skipped (a `not_found` or `scope_violation` warning naming the record).
 */
function forgottenCount(asked: MemoryRecordHandle[], warnings: MemoryWarning[]): number {
  const skipped = new Set<string>();
  for (const warning of warnings) {
    if (warning.type === 'not_found' || warning.type === 'scope_violation') skipped.add(warning.providerRecordId);
  }
  return new Set(asked.map((handle) => handle.providerRecordId).filter((id) => !skipped.has(id))).size;
}

/**
 * The operations that name records by handle: get, forget and correct. A handle must belong to
 * the caller before the provider sees it (the registry, else a read through the provider with
 * the caller's scope); a foreign one reads as not found.
 */
export function createHandleOperations(
  internals: ServiceInternals,
  context: MemoryCallContext,
  origin: { hook?: MemoryHookContext } & OperationOptions = {},
) {
  const options: OperationOptions = origin.deadlineMs === undefined ? {} : { deadlineMs: origin.deadlineMs };
  const actorAgentId = actingAgentOf(context.actor);
  const scopeFields = (request: { scope?: requests.MemoryServiceScope }) => ({
    scope: request.scope ?? {},
    namedCompanyIds: [request.scope?.companyId],
    ...(origin.hook === undefined ? {} : { hook: origin.hook }),
  });

  return {
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
        async ({ adapter, scope, call, placement }) => {
          const warnings: MemoryWarning[] = [];
          // A handle registered for another company, or issued by another adapter, reads as one the provider does not know, unasked.
          const placed = await placeHandles(placement, adapter.key, [valid.handle]);
          if (placed.foreign.length > 0) {
            warnings.push(...notFoundWarnings(placed.foreign));
            return { result: { snippet: null, warnings }, warnings, recordIds: [valid.handle.providerRecordId], resultCount: 0, dropped: 1 };
          }
          const answer = await call('get', () => adapter.get(valid.handle, scope));
          if (answer === null || answer === undefined) warnings.push(...notFoundWarnings([valid.handle]));
          const { snippet, dropped } = await guardSnippet(answer, placement, warnings);
          return { result: { snippet, warnings }, warnings, recordIds: [valid.handle.providerRecordId], resultCount: snippet === null ? 0 : 1, dropped };
        },
        options,
      );
      return { ...result, ...receipt };
    },

    /**
     * Forgets records; missing and foreign handles are harmless. `forgotten` counts the records
     * the provider was asked to forget and did not report as skipped.
     */
    async forget(request: requests.ServiceForgetRequest): Promise<MemoryServiceResult<MemoryServiceForgetResult>> {
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
        async (input) => {
          const { adapter, binding, scope, call } = input;
          // Only the caller's own records reach the provider; any other handle is skipped unasked.
          const { allowed, missing, refused } = await ownedHandles(input, actorAgentId, valid.handles);
          const skipped = skippedWarnings({ missing, refused });
          const dropped = missing.length + refused.length;
          if (allowed.length === 0) {
            return { result: { warnings: skipped, forgotten: 0 }, warnings: skipped, recordIds: [], dropped };
          }
          const forgotten = checkProviderResult('forget', await call('forget', () => adapter.forget(allowed, scope)), binding.providerId);
          const ids = allowed.map((handle) => handle.providerRecordId);
          // Records a write of this turn added are counted before they are uncounted.
          await internals.usageSettlements.flush();
          await internals.store
            .uncountBindingRecords(binding.companyId, binding.id, ids)
            .catch((error: unknown) => internals.reportBackgroundError(error, 'uncountBindingRecords'));
          await unregisterHandles(internals, binding, ids);
          const warnings = [...forgotten.warnings, ...skipped];
          const count = forgottenCount(allowed, forgotten.warnings);
          return { result: { ...forgotten, warnings, forgotten: count }, usage: forgotten.usage, warnings, recordIds: ids, dropped };
        },
        options,
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
        async (input) => {
          const { adapter, binding, scope, call } = input;
          requireCapability(adapter, 'correction', 'correct');
          // A record the caller cannot show is its own reads as missing; the provider never sees the handle.
          const { allowed } = await ownedHandles(input, actorAgentId, [valid.handle]);
          if (allowed.length === 0) throw new MemoryNotFoundError({ resourceId: valid.handle.providerRecordId });
          // With new text the record's size is known: it replaces the counted one, or a superseding version is counted.
          const text = valid.patch.text;
          const bytes = text === undefined ? 0 : recordBytes({ text, summary: valid.patch.summary, metadata: valid.patch.metadata });
          const reservation = await reserveQuota(internals, binding, { records: 0, bytes }, 'patch');
          const corrected = await underQuota(
            internals,
            reservation,
            async () => checkProviderResult('correct', await call('correct', () => adapter.correct(valid.handle, valid.patch, scope)), binding.providerId),
            (result) => (text === undefined ? [] : [{ providerRecordId: result.record.providerRecordId, bytes }]),
          );
          const ids = [valid.handle.providerRecordId, corrected.record.providerRecordId];
          // A superseding version belongs where the corrected record did.
          if (corrected.record.providerRecordId !== valid.handle.providerRecordId) {
            const placed = await placeHandles(input.placement, adapter.key, [valid.handle]);
            await registerHandles(internals, binding, { ...(placed.own.get(valid.handle.providerRecordId) ?? scope) }, [corrected.record]);
          }
          return { result: corrected, usage: corrected.usage, warnings: corrected.warnings, recordIds: [...new Set(ids)] };
        },
        options,
      );
      return { ...result, ...receipt };
    },
  };
}
