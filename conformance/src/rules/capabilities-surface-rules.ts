import { MemoryError, UnsupportedCapabilityError, type MemoryAdapterCapabilities } from '@memplane/core';
import { describeError, expectEqual, expectRejection, expectTrue, fail, preview } from '../assertions';
import { allOf, whenDeclared, whenNotDeclared, type ConformanceRule } from '../conformance-rule';
import { captureWithJob } from '../fixtures/extraction-fixtures';
import { markedText, type RuleContext } from '../rule-context';

const jobStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

interface SurfaceCase {
  surface: 'correct' | 'profile' | 'getExtractionJob' | 'listExtractionJobs' | 'retryExtractionJob' | 'explain';
  flag: keyof MemoryAdapterCapabilities;
  /** What "works" means for this surface, for the rule description. */
  worksWhen: string;
  /** Calls the surface with valid arguments. */
  call(context: RuleContext): Promise<unknown>;
  /** Checks the surface does its job. */
  works(context: RuleContext): Promise<void>;
}

async function writtenRecord(context: RuleContext) {
  const scope = context.scope();
  const marker = context.marker('surface');
  const handle = await context.writeMarkedRecord(scope, marker, { metadata: { kept: 1, changed: 'before' } });
  return { scope, marker, handle };
}

const surfaceCases: SurfaceCase[] = [
  {
    surface: 'correct',
    flag: 'correction',
    worksWhen: 'correct changes the text get returns, sets the patched metadata keys and keeps the others',
    async call(context) {
      const { scope, handle } = await writtenRecord(context);
      return context.adapter.correct(handle, { text: markedText(context.marker('corrected')) }, scope);
    },
    async works(context) {
      const { scope, handle } = await writtenRecord(context);
      const corrected = context.marker('corrected');
      const result = await context.adapter.correct(handle, { text: markedText(corrected), metadata: { changed: 'after' }, reason: 'conformance check' }, scope);
      await context.waitForConsistency();
      const snippet = await context.adapter.get(result.record, scope);
      expectEqual(snippet?.text, markedText(corrected), 'the text get returns after correct');
      expectEqual(snippet?.metadata?.changed, 'after', 'the metadata key the patch set');
      expectEqual(snippet?.metadata?.kept, 1, 'a metadata key the patch did not name');
    },
  },
  {
    surface: 'profile',
    flag: 'profile',
    worksWhen: 'profile of a subject with records returns a non-empty summary, with items only from that scope',
    call: (context) => context.adapter.profile(context.scope()),
    async works(context) {
      // Profiles are about someone: the scope names the subject and the agent, as platforms ask for them.
      const scope = context.scope({ subjectId: context.uniqueValue('subject'), agentId: context.ids.agentId });
      await context.writeRecords(scope, [markedText(context.marker('profile')), 'The team prefers small pull requests and deploys on Tuesdays.']);
      const profile = await context.adapter.profile(scope);
      expectTrue(typeof profile.summary === 'string' && profile.summary.trim() !== '', `Expected profile to return a non-empty summary for a scope with records, but it returned ${preview(profile.summary)}.`);
      for (const item of profile.items ?? []) {
        expectTrue(item.scope === undefined || (item.scope.companyId === scope.companyId && item.scope.subjectId === scope.subjectId), `Expected profile items to stay in the profiled scope, but one is in ${preview(item.scope)}.`);
      }
    },
  },
  {
    surface: 'getExtractionJob',
    flag: 'asyncExtraction',
    worksWhen: 'getExtractionJob reads the job a capture started (valid status) and returns null for an unknown job id',
    call: (context) => context.adapter.getExtractionJob(context.uniqueValue('job'), context.scope()),
    async works(context) {
      const job = await captureWithJob(context, context.scope(), context.marker());
      const { job: read } = await context.adapter.getExtractionJob(job.providerJobId, context.scope());
      expectEqual(read?.providerJobId, job.providerJobId, 'the providerJobId getExtractionJob returns');
      expectTrue(jobStatuses.includes(read?.status ?? ''), `Expected a valid job status, but got ${preview(read?.status)}.`);
      const { job: unknown } = await context.adapter.getExtractionJob(context.uniqueValue('no-such-job'), context.scope());
      expectEqual(unknown, null, 'getExtractionJob of an unknown job id');
    },
  },
  {
    surface: 'listExtractionJobs',
    flag: 'listExtractionJobs',
    worksWhen: 'listExtractionJobs lists the job a capture started',
    call: (context) => context.adapter.listExtractionJobs(context.scope()),
    async works(context) {
      const job = await captureWithJob(context, context.scope(), context.marker());
      await context.waitForConsistency();
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page += 1) {
        const result = await context.adapter.listExtractionJobs(context.scope(), cursor);
        ids.push(...result.items.map((item) => item.providerJobId));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      expectTrue(ids.includes(job.providerJobId), `Expected listExtractionJobs to include the job ${job.providerJobId} the capture started, but it listed ${preview(ids)}.`);
    },
  },
  {
    surface: 'retryExtractionJob',
    flag: 'retryExtractionJob',
    worksWhen: 'retryExtractionJob of a real finished job returns a job or refuses with a typed MemoryError, never UnsupportedCapabilityError',
    call: (context) => context.adapter.retryExtractionJob(context.uniqueValue('job'), context.scope()),
    async works(context) {
      const scope = context.scope();
      const job = await captureWithJob(context, scope, context.marker());
      const final = await context.pollJobUntilFinal(job.providerJobId, scope);
      try {
        const { job: retried } = await context.adapter.retryExtractionJob(final.providerJobId, scope);
        expectTrue(jobStatuses.includes(retried.status), `Expected retryExtractionJob to return a job with a valid status, but got ${preview(retried)}.`);
      } catch (error) {
        // Retrying a job that did not fail may be refused, but only with a typed error, never as unsupported.
        expectTrue(MemoryError.isInstance(error) && !UnsupportedCapabilityError.isInstance(error), `Expected retryExtractionJob of a ${final.status} job to return a job or refuse with a typed MemoryError, but it threw ${describeError(error)}.`);
      }
    },
  },
  {
    surface: 'explain',
    flag: 'explain',
    worksWhen: 'explain returns a step with a stage for every snippet of a real query result, and none for other records',
    async call(context) {
      const { scope, marker } = await writtenRecord(context);
      return context.adapter.explain(await context.adapter.query({ bindingKey: context.bindingKey, scope, query: marker }), scope);
    },
    async works(context) {
      const { scope } = await writtenRecord(context);
      await context.writeRecords(scope, [markedText(context.marker('second'))]);
      const bundle = await context.adapter.query({ bindingKey: context.bindingKey, scope, query: 'release checklist' });
      if (bundle.snippets.length === 0) return fail('Expected a query for "release checklist" to return snippets to explain, but it returned none.');
      const explanation = await context.adapter.explain(bundle, scope);
      const snippetIds = bundle.snippets.map((snippet) => snippet.handle.providerRecordId);
      const stepIds = explanation.steps.map((step) => step.handle.providerRecordId);
      for (const id of snippetIds) expectTrue(stepIds.includes(id), `Expected explain to have a step for the snippet ${id}, but its steps cover ${preview(stepIds)}.`);
      for (const step of explanation.steps) {
        expectTrue(snippetIds.includes(step.handle.providerRecordId), `Expected every explain step to be about a snippet of the result, but one is about ${step.handle.providerRecordId}.`);
        expectTrue(typeof step.stage === 'string' && step.stage !== '', `Expected every explain step to name its stage, but got ${preview(step.stage)}.`);
      }
      return undefined;
    },
  },
];

/** For every optional surface: when its flag is off it throws UnsupportedCapabilityError; when on, it works. */
export const capabilitySurfaceRules: ConformanceRule[] = surfaceCases.flatMap((surfaceCase): ConformanceRule[] => [
  {
    id: `capabilities.${surfaceCase.surface}.declared-off`,
    family: 'capabilities',
    description: `With capabilities.${surfaceCase.flag} off, ${surfaceCase.surface} throws UnsupportedCapabilityError.`,
    requires: whenNotDeclared(surfaceCase.flag),
    async run(context) {
      await expectRejection(`${surfaceCase.surface} without capabilities.${surfaceCase.flag}`, () => surfaceCase.call(context), {
        name: 'UnsupportedCapabilityError',
        matches: UnsupportedCapabilityError.isInstance,
      });
    },
  },
  {
    id: `capabilities.${surfaceCase.surface}.declared-on`,
    family: 'capabilities',
    description: `With capabilities.${surfaceCase.flag} on, ${surfaceCase.worksWhen}.`,
    requires:
      surfaceCase.flag === 'listExtractionJobs' || surfaceCase.flag === 'retryExtractionJob'
        ? allOf(whenDeclared(surfaceCase.flag), whenDeclared('asyncExtraction'))
        : whenDeclared(surfaceCase.flag),
    run: (context) => surfaceCase.works(context),
  },
]);
