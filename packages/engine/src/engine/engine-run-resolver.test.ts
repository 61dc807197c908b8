import { MemoryApiCallError } from '@memplane/core';
import { expect, it } from 'vitest';
import { z } from 'zod';
import type { EngineRunner, PipelineRun, RunResolver } from '../runner/engine-runner';
import { createSyncRunner } from '../runner/sync-runner';
import { createInMemoryStore } from '../store/memory/memory-store';
import { auditStep } from '../runner/test-support/engine-audit-step';
import { crashConversation } from '../test-support/crash-conversation';
import { createMemoryEngine } from './create-memory-engine';

/** The synchronous runner, keeping the resolvers engines attach and the meta of each run. */
function recordingRunner(): EngineRunner & { resolvers: RunResolver[]; runs: PipelineRun[] } {
  const sync = createSyncRunner();
  const resolvers: RunResolver[] = [];
  const runs: PipelineRun[] = [];
  return {
    name: 'recording',
    resolvers,
    runs,
    run: (run) => {
      runs.push(run as PipelineRun);
      return sync.run(run);
    },
    attach(resolver) {
      resolvers.push(resolver);
      return () => resolvers.splice(resolvers.indexOf(resolver), 1);
    },
  };
}

const scope = z.object({ companyId: z.string(), agentId: z.string() });

it('an engine resolves only its own runs, with the steps of the run revision, and refuses what it cannot check or run', async () => {
  const runner = recordingRunner();
  const store = createInMemoryStore();
  const engine = await createMemoryEngine({ scope, store, runner });
  const twin = await createMemoryEngine({ scope, store: createInMemoryStore(), runner });
  expect(runner.resolvers).toHaveLength(2);
  const [own, other] = runner.resolvers as [RunResolver, RunResolver];
  await engine.insertAfter('extract_items', auditStep);
  const result = await engine.memorize({ companyId: 'acme', agentId: 'planner' }, crashConversation);
  const run = runner.runs[0]!;
  const found = { runId: result.runId, flow: run.flow, pipelineRevision: run.pipelineRevision, meta: run.meta ?? {} };
  expect(run.meta).toMatchObject({ log: { inputSummary: 'conversation: 2 messages, 85 characters', outputKey: 'memorized', scopeRange: { companyId: ['acme'], agentId: ['planner'] } } });

  // Same scope schema and the same kind of store, but another store: not its run.
  expect(await other(found)).toBeUndefined();
  expect(await other({ ...found, meta: {} })).toBeUndefined();
  const resolved = await own(found);
  expect(resolved !== undefined && 'steps' in resolved ? resolved.steps.map((step) => step.step.stepId) : resolved).toEqual(run.steps.map((step) => step.step.stepId));
  // The revision the run used, not the current one.
  await engine.rollback(1);
  const after = await own(found);
  expect(after !== undefined && 'steps' in after ? after.steps.some((step) => step.step.stepId === 'audit_candidates') : after).toBe(true);

  expect(await own({ ...found, pipelineRevision: 9 })).toEqual({ refused: `pipeline revision 9 of run ${result.runId} is not in this engine's store` });
  expect(await own({ ...found, meta: { ...found.meta, log: { ...(found.meta.log as object), scopeRange: 'everything' } } })).toEqual({ refused: `run ${result.runId} of this engine carries no valid run-log data (scopeRange)` });
  expect(await own({ ...found, meta: { ...found.meta, log: { ...(found.meta.log as object), outputKey: 'scope' } } })).toEqual({ refused: `run ${result.runId} names output "scope", not the memorize flow's` });
  // An engine on the same store that was not given the step cannot rebuild revision 2.
  const forgetful = await createMemoryEngine({ scope, store, runner });
  const refused = await runner.resolvers[2]!(found);
  expect(refused).toEqual({ refused: 'pipeline revision 2 uses steps not registered in this process (user:audit_candidates); give them to the engine here in settings.steps' });

  // The resolved run's finish writes the run log once, whoever else wrote it.
  if (resolved === undefined || !('steps' in resolved)) throw new TypeError('expected a resolved run');
  await resolved.finish?.({ state: { memorized: result }, steps: [], llmUsage: [] });
  expect((await engine.listRuns()).filter((row) => row.id === result.runId)).toHaveLength(1);
  // A run that failed in the worker is logged as failed, with the step's error; one that ended
  // without its output is a failure too.
  const failing = await own({ ...found, runId: 'run_failed' });
  const silent = await own({ ...found, runId: 'run_silent' });
  if (failing === undefined || !('steps' in failing) || silent === undefined || !('steps' in silent)) throw new TypeError('expected resolved runs');
  await failing.finish?.({ state: {}, steps: [], llmUsage: [], error: new MemoryApiCallError({ message: 'the audit service is down', isRetryable: false }) });
  await silent.finish?.({ state: {}, steps: [], llmUsage: [] });
  const logged = await engine.listRuns();
  expect(logged.find((row) => row.id === 'run_failed')).toMatchObject({ status: 'failed', outputSummary: 'failed', failures: ['MEMORY_API_CALL: the audit service is down'], pipelineRevision: 2 });
  expect(logged.find((row) => row.id === 'run_silent')).toMatchObject({ status: 'failed', failures: ['MEMORY_API_CALL: The memorize pipeline finished without producing "memorized".'] });

  await forgetful.close();
  await twin.close();
  expect(runner.resolvers).toEqual([own]);
  await engine.close();
  expect(runner.resolvers).toEqual([]);
});
