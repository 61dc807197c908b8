import {
  finalExtractionJobStatuses,
  MemoryNotFoundError,
  parseInput,
  type MemoryExtractionJob,
  type MemoryExtractionJobPage,
  type MemoryUsage,
  type MemoryWarning,
} from '@memplane/core';
import { refreshedJobEntry, toJobEntry } from '../jobs/extraction-job-entries';
import { scheduleExtractionPoll } from '../queue/extraction-poll-schedule';
import type { ServiceInternals } from '../service/service-internals';
import type { MemoryExtractionJobEntry } from '../store/memory-service-records';
import type { MemoryCallContext } from './call-context';
import { requireCapability, type MemoryServiceResult } from './record-operations';
import { guardJobs, withholdUnplacedJobText } from './result-scope-guard';
import { runOperation, type MemoryOperationReceipt } from './run-operation';
import { checkProviderResult } from './provider-results';
import { actingAgentOf } from './agent-identity';
import { authorizeCompany } from '../policy/authorize-company';
import { MemoryAccessDeniedError } from '../errors/memory-access-denied-error';
import * as requests from './runtime-requests';
import { thrownMessage } from '../errors/thrown-message';

/** The outcome of a refresh: the jobs polled, as the service now holds them. */
export interface MemoryExtractionRefresh {
  /** The jobs polled and their new state. */
  jobs: MemoryExtractionJobEntry[];
  /** Usage of the polls. */
  usage: MemoryUsage[];
  /** Jobs the provider no longer knows, and other notices. */
  warnings: MemoryWarning[];
}

const pendingStatuses = ['queued', 'running'] as const;

/** The extraction job operations of one caller: the provider's listing, retry, and refresh. */
export function createJobOperations(internals: ServiceInternals, context: MemoryCallContext) {
  const operations = {
    /**
     * The provider's own job listing (needs `listExtractionJobs`), checked against the company;
     * every job seen is stored, so the explorer shows it too.
     */
    async listProviderExtractionJobs(
      request: requests.ServiceProviderJobListRequest = {},
    ): Promise<MemoryServiceResult<MemoryExtractionJobPage>> {
      let valid: requests.ServiceProviderJobListRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'extraction_job_list',
        'listExtractionJobs',
        () => {
          valid = parseInput(requests.serviceProviderJobListRequestSchema, request, 'listExtractionJobs request');
          return { scope: valid.scope ?? {}, namedCompanyIds: [valid.scope?.companyId], bindingKey: valid.bindingKey };
        },
        async ({ adapter, binding, scope, call }) => {
          requireCapability(adapter, 'listExtractionJobs', 'listExtractionJobs');
          const page = checkProviderResult('extractionJobPage', await call('listExtractionJobs', () => adapter.listExtractionJobs(scope, valid.cursor)), binding.providerId);
          const warnings = page.warnings;
          const guarded = guardJobs(page.items, scope, warnings);
          const jobs = withholdUnplacedJobText(guarded.jobs, warnings);
          const dropped = guarded.dropped;
          const now = internals.now();
          await internals.store.upsertExtractionJobs(jobs.map((job) => toJobEntry(job, { binding, scope }, now, internals.createId)));
          return {
            result: { ...page, items: jobs, warnings },
            usage: page.usage,
            warnings,
            recordIds: jobs.map((job) => job.providerJobId),
            resultCount: jobs.length,
            dropped,
          };
        },
      );
      return { ...result, ...receipt };
    },

    /** Re-drives a failed job (needs `retryExtractionJob`) through the binding that ran it. */
    async retryExtractionJob(request: requests.ServiceRetryJobRequest): Promise<MemoryServiceResult<{ job: MemoryExtractionJobEntry }>> {
      let valid: requests.ServiceRetryJobRequest;
      let known: MemoryExtractionJobEntry | undefined;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'extraction_job_retry',
        'retryExtractionJob',
        () => {
          valid = parseInput(requests.serviceRetryJobRequestSchema, request, 'retryExtractionJob request');
          return {
            scope: {},
            namedCompanyIds: [],
            details: { jobId: valid.jobId },
            locateBinding: async (companyId) => {
              known = await internals.store.getExtractionJob(companyId, valid.jobId);
              // An agent re-drives only its own jobs: another agent's reads as missing.
              const agentId = actingAgentOf(context.actor);
              if (known === undefined || (agentId !== undefined && known.scope.agentId !== agentId)) {
                throw new MemoryNotFoundError({ resourceId: valid.jobId });
              }
              return known.bindingId;
            },
          };
        },
        async ({ adapter, binding, scope, call }) => {
          requireCapability(adapter, 'retryExtractionJob', 'retryExtractionJob');
          const previous = known!;
          const retried = checkProviderResult(
            'extractionRetry',
            await call('retryExtractionJob', () => adapter.retryExtractionJob(previous.providerJobId, previous.scope)),
            binding.providerId,
          );
          const warnings = retried.warnings;
          const job: MemoryExtractionJob | undefined = guardJobs([retried.job], scope, warnings).jobs[0];
          if (job === undefined) throw new MemoryNotFoundError({ resourceId: valid.jobId });
          const now = internals.now();
          const retryCount = previous.retryCount + 1;
          // A provider may answer a retry with a new job id; the service then keeps both jobs.
          const sameJob = job.providerJobId === previous.providerJobId;
          const entry = sameJob
            ? { ...refreshedJobEntry(previous, job, now), retryCount }
            : toJobEntry(job, { binding, scope: previous.scope, hookKind: previous.hookKind, source: previous.source, retryCount }, now, internals.createId);
          await internals.store.upsertExtractionJobs([entry]);
          const stored = await internals.store.getExtractionJob(scope.companyId, entry.id);
          if (entry.status === 'queued' || entry.status === 'running') await scheduleExtractionPoll(internals, binding);
          return {
            result: { job: stored ?? entry },
            usage: retried.usage,
            warnings,
            recordIds: [entry.providerJobId],
            extractionFailures: entry.status === 'failed' ? 1 : 0,
          };
        },
      );
      return { ...result, ...receipt };
    },

    /**
     * Polls the providers (needs `asyncExtraction`) for the jobs the service holds as queued or
     * running, and stores what they say: one logged operation per binding with pending jobs.
     * A binding that cannot be polled (disabled, removed, failing) is reported in `warnings`.
     */
    async refreshExtractionJobs(
      request: requests.ServiceRefreshJobsRequest = {},
    ): Promise<MemoryExtractionRefresh & { receipts: MemoryOperationReceipt[] }> {
      const valid = parseInput(requests.serviceRefreshJobsRequestSchema, request, 'refreshExtractionJobs request');
      let bindingKeys: string[];
      if (valid.bindingKey !== undefined) {
        bindingKeys = [valid.bindingKey];
      } else {
        // The policy first: reading the company's pending jobs before it would tell a caller the
        // policy refuses whether that company has any (an empty 200 against a 403).
        const companyId = await authorizeCompany(internals.authorize, context, 'refreshExtractionJobs');
        const pending = await internals.store.listExtractionJobs({ companyId, statuses: [...pendingStatuses] }, { limit: 500 });
        bindingKeys = [...new Set(pending.items.map((job) => job.bindingKey))].sort();
      }
      const refresh: MemoryExtractionRefresh & { receipts: MemoryOperationReceipt[] } = { jobs: [], usage: [], warnings: [], receipts: [] };
      for (const bindingKey of bindingKeys) {
        try {
          const { operationId, providerId, bindingKey: key, ...one } = await refreshBinding({ ...valid, bindingKey });
          refresh.jobs.push(...one.jobs);
          refresh.usage.push(...one.usage);
          refresh.warnings.push(...one.warnings);
          refresh.receipts.push({ operationId, providerId, bindingKey: key });
        } catch (error) {
          if (valid.bindingKey !== undefined || MemoryAccessDeniedError.isInstance(error)) throw error;
          refresh.warnings.push({ type: 'other', message: `Binding ${bindingKey}: ${thrownMessage(error)}` });
        }
      }
      return refresh;
    },
  };
  return operations;

  async function refreshBinding(request: requests.ServiceRefreshJobsRequest): Promise<MemoryServiceResult<MemoryExtractionRefresh>> {
      let valid: requests.ServiceRefreshJobsRequest;
      const { result, receipt } = await runOperation(
        internals,
        context,
        'extraction_job_refresh',
        'refreshExtractionJobs',
        () => {
          valid = parseInput(requests.serviceRefreshJobsRequestSchema, request, 'refreshExtractionJobs request');
          return { scope: {}, namedCompanyIds: [], bindingKey: valid.bindingKey, details: { limit: valid.limit ?? 50 } };
        },
        async ({ adapter, binding, scope, call }) => {
          requireCapability(adapter, 'asyncExtraction', 'getExtractionJob');
          const pending = await internals.store.listExtractionJobs(
            { companyId: scope.companyId, bindingId: binding.id, statuses: [...pendingStatuses] },
            { limit: valid.limit ?? 50 },
          );
          const usage: MemoryUsage[] = [];
          const warnings: MemoryWarning[] = [];
          const updated: MemoryExtractionJobEntry[] = [];
          for (const known of pending.items) {
            const polled = checkProviderResult(
              'extractionJob',
              await call('getExtractionJob', () => adapter.getExtractionJob(known.providerJobId, known.scope)),
              binding.providerId,
            );
            usage.push(...polled.usage);
            warnings.push(...polled.warnings);
            const { jobs } = guardJobs(polled.job === null ? [] : [polled.job], scope, warnings);
            const job = jobs[0];
            if (job === undefined) {
              warnings.push({ type: 'other', message: `Provider job ${known.providerJobId} is no longer visible; it stays ${known.status}.` });
              continue;
            }
            updated.push(refreshedJobEntry(known, job, internals.now()));
          }
          await internals.store.upsertExtractionJobs(updated);
          const finished = updated.filter((entry) => finalExtractionJobStatuses.includes(entry.status)).length;
          // Every polled job was queued or running, so each failed one is a failure seen now, counted once.
          const failedNow = updated.filter((entry) => entry.status === 'failed').length;
          return {
            result: { jobs: updated, usage, warnings },
            usage,
            warnings,
            recordIds: updated.map((entry) => entry.providerJobId),
            resultCount: finished,
            extractionFailures: failedNow,
          };
        },
      );
      return { ...result, ...receipt };
  }
}
