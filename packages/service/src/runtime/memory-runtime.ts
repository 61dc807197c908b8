import { identifierSchema, parseInput } from '@memplane/core';
import { z } from 'zod';
import { MemoryBindingNotFoundError } from '../errors/memory-binding-not-found-error';
import { readPage, type MemoryExplorerPage } from '../explorer/explorer-pages';
import { authorizeCompany } from '../policy/authorize-company';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryExtractionJobEntry } from '../store/memory-service-records';
import type { MemoryCallContext } from './call-context';
import { createJobOperations } from './job-operations';
import { createRecordOperations } from './record-operations';
import type { ServiceJobListRequest } from './runtime-requests';

const jobListRequestSchema = z.strictObject({
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
 * The runtime API of one caller. The company is the caller's; every operation is authorised,
 * resolved to a binding, checked against the scope and logged.
 */
export function createMemoryRuntime(internals: ServiceInternals, context: MemoryCallContext) {
  return {
    ...createRecordOperations(internals, context),
    ...createJobOperations(internals, context),
    /** The extraction jobs the service holds for the company (refreshed from the providers), newest first. */
    listExtractionJobs: (request: ServiceJobListRequest = {}) => listStoredExtractionJobs(internals, context, request, 'listExtractionJobs'),
  };
}

/** The runtime API bound to one caller: `service.runtime(context)`. */
export type MemoryRuntime = ReturnType<typeof createMemoryRuntime>;
