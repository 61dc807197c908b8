import {
  identifierSchema,
  parseInput,
  type MemoryCaptureResult,
  type MemoryContextBundle,
  type MemoryExplanation,
  type MemoryCorrectionResult,
  type MemoryExtractionJobPage,
  type MemoryListPage,
  type MemoryProfile,
  type MemoryRecordWriteResult,
  type MemorySnippet,
  type MemoryWarning,
} from '@memplane/core';
import { z } from 'zod';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import { readPage, type MemoryExplorerPage } from '../explorer/explorer-pages';
import { authorizeCompany } from '../policy/authorize-company';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryExtractionJobEntry } from '../store/memory-service-records';
import type { MemoryCallContext } from './call-context';
import { createJobOperations, type MemoryExtractionRefresh } from './job-operations';
import { createRecordOperations, type MemoryServiceResult } from './record-operations';
import type { MemoryServiceForgetResult } from './record-handle-operations';
import { createRefusedCallOperation, type ServiceRefusedCallRequest } from './refused-call';
import type { MemoryOperationReceipt } from './run-operation';
import type {
  ServiceCaptureRequest,
  ServiceCorrectRequest,
  ServiceForgetRequest,
  ServiceGetRequest,
  ServiceJobListRequest,
  ServiceListRequest,
  ServiceProfileRequest,
  ServiceProviderJobListRequest,
  ServiceQueryRequest,
  ServiceRecordWriteRequest,
  ServiceRefreshJobsRequest,
  ServiceRetryJobRequest,
} from './runtime-requests';

export const jobListRequestSchema = z.strictObject({
  bindingKey: identifierSchema.optional(),
  statuses: z.array(z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled'])).min(1).max(5).optional(),
  hookKind: z
    .enum(['pre_run_hydrate', 'post_run_capture', 'issue_comment_capture', 'issue_document_capture', 'manual_capture'])
    .optional(),
  cursor: z.string().min(1).max(4096).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});

/** The extraction jobs the service holds, newest first, by cursor. Reads the store, not the provider. */
export async function listStoredExtractionJobs(
  internals: ServiceInternals,
  context: MemoryCallContext,
  request: ServiceJobListRequest,
  operation: 'listExtractionJobs' | 'explorer.read',
): Promise<MemoryExplorerPage<MemoryExtractionJobEntry>> {
  const valid = parseInput(jobListRequestSchema, request, 'extraction job list request');
  const companyId = await authorizeCompany(internals.authorize, context, operation);
  let bindingId: string | undefined;
  if (valid.bindingKey !== undefined) {
    const binding = await internals.store.getBindingByKey(companyId, valid.bindingKey);
    if (binding === undefined) throw new MemoryBindingNotFoundError({ companyId, bindingKey: valid.bindingKey });
    bindingId = binding.id;
  }
  const filter = {
    companyId,
    ...(bindingId === undefined ? {} : { bindingId }),
    ...(valid.statuses === undefined ? {} : { statuses: valid.statuses }),
    ...(valid.hookKind === undefined ? {} : { hookKind: valid.hookKind }),
  };
  return readPage(internals.codec, { companyId, listing: 'extraction-jobs', filter }, valid, (page) =>
    internals.store.listExtractionJobs(filter, page),
  );
}

/**
 * The runtime API bound to one caller (`service.runtime(context)`). The company is the
 * caller's; every operation is authorised, resolved to a binding (the named one, else the
 * agent's override, else the company default), checked against the scope and logged in
 * `memory_operations`, failures included. Results carry the operation id, binding and provider.
 */
export interface MemoryRuntime {
  /** Captures raw residue (a run, a comment, a document); extraction jobs it starts are kept by the service. */
  capture(request: ServiceCaptureRequest): Promise<MemoryServiceResult<MemoryCaptureResult>>;
  /** Writes curated records. */
  upsertRecords(request: ServiceRecordWriteRequest): Promise<MemoryServiceResult<MemoryRecordWriteResult>>;
  /**
   * The most relevant records; any record outside the scope is dropped, logged and counted. With
   * `explain: true`, `explanation` is the provider's trace of the returned snippets only.
   */
  query(request: ServiceQueryRequest): Promise<MemoryServiceResult<MemoryContextBundle & { explanation?: MemoryExplanation }>>;
  /** One page of the scope's records, checked against the scope. */
  list(request?: ServiceListRequest): Promise<MemoryServiceResult<MemoryListPage>>;
  /** One record, or null when it is not visible in the scope. */
  get(request: ServiceGetRequest): Promise<MemoryServiceResult<{ snippet: MemorySnippet | null; warnings: MemoryWarning[] }>>;
  /**
   * Forgets records; missing and foreign handles are harmless. `forgotten` is how many records
   * were actually forgotten; each skipped handle has a warning: `not_found` when no record of the
   * caller's company has it (another company's reads the same), `scope_violation` when the
   * record is the company's but not the caller's to change.
   */
  forget(request: ServiceForgetRequest): Promise<MemoryServiceResult<MemoryServiceForgetResult>>;
  /** Corrects a record (needs the `correction` capability). */
  correct(request: ServiceCorrectRequest): Promise<MemoryServiceResult<MemoryCorrectionResult>>;
  /** The scope's profile (needs the `profile` capability). */
  profile(request?: ServiceProfileRequest): Promise<MemoryServiceResult<MemoryProfile>>;
  /** The provider's own extraction job listing (needs `listExtractionJobs`); what it shows is stored too. */
  listProviderExtractionJobs(request?: ServiceProviderJobListRequest): Promise<MemoryServiceResult<MemoryExtractionJobPage>>;
  /** Re-drives a failed job the service holds (needs `retryExtractionJob`), through the binding that ran it. */
  retryExtractionJob(request: ServiceRetryJobRequest): Promise<MemoryServiceResult<{ job: MemoryExtractionJobEntry }>>;
  /** Polls the providers for the jobs held as queued or running; one logged operation per binding. */
  refreshExtractionJobs(request?: ServiceRefreshJobsRequest): Promise<MemoryExtractionRefresh & { receipts: MemoryOperationReceipt[] }>;
  /** The extraction jobs the service holds for the company, newest first, by cursor. Reads the store, not the provider. */
  listExtractionJobs(request?: ServiceJobListRequest): Promise<MemoryExplorerPage<MemoryExtractionJobEntry>>;
  /**
   * Logs a call the caller's own front end refused before it reached this API (an agent tool's
   * strict input schema, say) as a failed operation, naming only the refused fields. The agent
   * tools call it for every input they refuse, so a refusal is as visible as any other failure.
   */
  logRefusedCall(request: ServiceRefusedCallRequest): Promise<{ operationId: string }>;
}

/** Creates the runtime API of one caller. */
export function createMemoryRuntime(internals: ServiceInternals, context: MemoryCallContext): MemoryRuntime {
  return {
    ...createRecordOperations(internals, context),
    ...createJobOperations(internals, context),
    ...createRefusedCallOperation(internals, context),
    listExtractionJobs: (request = {}) => listStoredExtractionJobs(internals, context, request, 'listExtractionJobs'),
  };
}
