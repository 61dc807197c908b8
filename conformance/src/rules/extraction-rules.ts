import type { MemoryScope } from '@memplane/core';
import { anyMemoryError, expectEqual, expectNoSnippets, expectRejection, expectTrue, preview } from '../assertions';
import { allOf, whenDeclared, type ConformanceRule } from '../conformance-rule';
import { captureFailedJob, captureWithJob, expectFinalJob } from '../fixtures/extraction-fixtures';
import type { RuleContext } from '../rule-context';

const asyncExtraction = whenDeclared('asyncExtraction');
const jobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

async function listJobIds(context: RuleContext, scope: MemoryScope): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page += 1) {
    const result = await context.adapter.listExtractionJobs(scope, cursor);
    for (const job of result.items) {
      expectTrue(jobStatuses.includes(job.status), `Expected listed job ${job.providerJobId} to have a valid status, but it had ${preview(job.status)}.`);
      ids.push(job.providerJobId);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return ids;
}

/** The `extraction` family: asynchronous extraction jobs finish, fail visibly, retry and stay in scope. */
export const extractionRules: ConformanceRule[] = [
  {
    id: 'extraction.job.reaches-succeeded',
    family: 'extraction',
    description: 'A capture returns extraction jobs; polling getExtractionJob (at most 20 polls, waitForConsistency between) reaches succeeded, with finishedAt.',
    requires: asyncExtraction,
    async run(context) {
      const scope = context.scope();
      const job = await captureWithJob(context, scope, context.marker('job'));
      expectTrue(jobStatuses.includes(job.status), `Expected the capture's job to have a valid status, but it had ${preview(job.status)}.`);
      expectFinalJob(await context.pollJobUntilFinal(job.providerJobId, scope), 'succeeded', `extraction job ${job.providerJobId}`);
    },
  },
  {
    id: 'extraction.records.scoped',
    family: 'extraction',
    description: 'Once the job succeeded, the extracted records are listed in the capture\'s scope, and not for another agent or another company.',
    requires: asyncExtraction,
    async run(context) {
      const scope = context.scope({ agentId: context.ids.agentId });
      const job = await captureWithJob(context, scope, context.marker('records'));
      expectFinalJob(await context.pollJobUntilFinal(job.providerJobId, scope), 'succeeded', `extraction job ${job.providerJobId}`);
      await context.waitForConsistency();
      const extracted = await context.listAll(scope);
      expectTrue(extracted.length > 0, 'Expected the records extracted by a succeeded job to be listed in the capture\'s scope, but the scope lists nothing.');
      expectNoSnippets(await context.listAll(context.scope({ agentId: context.ids.otherAgentId })), 'a list for another agent of the same company');
      expectNoSnippets(await context.listAll(context.otherCompanyScope()), 'a list in another company');
    },
  },
  {
    id: 'extraction.job.scoped',
    family: 'extraction',
    description: 'getExtractionJob of company A\'s job with company B\'s scope returns null.',
    requires: asyncExtraction,
    async run(context) {
      const job = await captureWithJob(context, context.scope(), context.marker('job'));
      const { job: fromOther } = await context.adapter.getExtractionJob(job.providerJobId, context.otherCompanyScope());
      expectEqual(fromOther, null, 'getExtractionJob of company A\'s job in company B');
    },
  },
  {
    id: 'extraction.failure.reported',
    family: 'extraction',
    description: 'Under an injected extraction_failure, the job ends `failed` with a non-empty error and finishedAt.',
    requires: asyncExtraction,
    needs: ['faults'],
    async run(context) {
      await captureFailedJob(context, context.scope(), context.marker('failure'));
    },
  },
  {
    id: 'extraction.retry.succeeds',
    family: 'extraction',
    description: 'After faults.reset(), retryExtractionJob of a failed job leads to a job that succeeds, and its records are listed.',
    requires: allOf(asyncExtraction, whenDeclared('retryExtractionJob')),
    needs: ['faults'],
    async run(context) {
      const scope = context.scope();
      const failed = await captureFailedJob(context, scope, context.marker('retry'));
      const { job: retried } = await context.adapter.retryExtractionJob(failed.providerJobId, scope);
      expectTrue(jobStatuses.includes(retried.status), `Expected retryExtractionJob to return a job with a valid status, but it returned ${preview(retried)}.`);
      expectFinalJob(await context.pollJobUntilFinal(retried.providerJobId, scope), 'succeeded', `the retried job ${retried.providerJobId}`);
      await context.waitForConsistency();
      expectTrue((await context.listAll(scope)).length > 0, 'Expected the records of the retried job to be listed, but the scope lists nothing.');
    },
  },
  {
    id: 'extraction.retry.scoped',
    family: 'extraction',
    description: 'retryExtractionJob of company A\'s failed job with company B\'s scope throws a MemoryError, and the job stays failed.',
    requires: allOf(asyncExtraction, whenDeclared('retryExtractionJob')),
    needs: ['faults'],
    async run(context) {
      const failed = await captureFailedJob(context, context.scope(), context.marker('foreign'));
      await expectRejection(
        'retryExtractionJob of company A\'s job with company B\'s scope',
        () => context.adapter.retryExtractionJob(failed.providerJobId, context.otherCompanyScope()),
        anyMemoryError,
      );
      await context.waitForConsistency();
      const { job } = await context.adapter.getExtractionJob(failed.providerJobId, context.scope());
      expectEqual(job?.status, 'failed', 'the status of company A\'s job after company B tried to retry it');
    },
  },
  {
    id: 'extraction.list-jobs.scoped',
    family: 'extraction',
    description: 'listExtractionJobs shows the scope\'s jobs and never another company\'s.',
    requires: allOf(asyncExtraction, whenDeclared('listExtractionJobs')),
    async run(context) {
      const jobA = await captureWithJob(context, context.scope(), context.marker('jobsa'));
      const jobB = await captureWithJob(context, context.otherCompanyScope(), context.marker('jobsb'));
      await context.waitForConsistency();
      const listedA = await listJobIds(context, context.scope());
      const listedB = await listJobIds(context, context.otherCompanyScope());
      expectTrue(listedA.includes(jobA.providerJobId), `Expected company A's job list to include its job ${jobA.providerJobId}, but it listed ${preview(listedA)}.`);
      expectTrue(!listedA.includes(jobB.providerJobId), `Expected company A's job list NOT to include company B's job ${jobB.providerJobId}.`);
      expectTrue(listedB.includes(jobB.providerJobId), `Expected company B's job list to include its job ${jobB.providerJobId}, but it listed ${preview(listedB)}.`);
      expectTrue(!listedB.includes(jobA.providerJobId), `Expected company B's job list NOT to include company A's job ${jobA.providerJobId}.`);
    },
  },
];
