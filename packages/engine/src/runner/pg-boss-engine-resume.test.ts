import pg from 'pg';
import { afterAll, afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryEngine } from '../engine/create-memory-engine';
import type { MemoryEngine } from '../engine/memory-engine';
import { createInMemoryStore } from '../store/memory/memory-store';
import { createPostgresEngineStore } from '../store/postgres/postgres-engine-store';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { startChildProcess, type TestChildProcess } from '../test-support/child-processes';
import { crashConversation } from '../test-support/crash-conversation';
import { createPgBossRunner } from './pg-boss-runner';
import { createSyncRunner } from './sync-runner';
import { auditStep } from './test-support/engine-audit-step';

const workerScript = new URL('./test-support/engine-worker-process.ts', import.meta.url);
const scope = { companyId: 'acme', agentId: 'planner' };
const companyScope = z.object({ companyId: z.string(), agentId: z.string() });

describeWithPostgres('the engine resumes its own runs on the queued runner after the caller is killed', (url) => {
  const schemas: string[] = [];
  const children: TestChildProcess[] = [];
  const closing: Array<() => Promise<void>> = [];
  /** The processes in which the audit step ran to its end, in order. */
  const stepRuns: string[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    for (const close of closing.splice(0)) await close();
    stepRuns.length = 0;
  });
  afterAll(() => dropSchemas(url, schemas));

  function names(): { store: string; runner: string } {
    const store = uniqueSchemaName('resume');
    schemas.push(store, `${store}_runner`);
    return { store, runner: `${store}_runner` };
  }

  function start(name: string, schema: { store: string; runner: string }, extra: Record<string, string> = {}): TestChildProcess {
    const child = startChildProcess(workerScript, {
      MEMPLANE_TEST_POSTGRES_URL: url,
      MEMPLANE_TEST_STORE_SCHEMA: schema.store,
      MEMPLANE_TEST_RUNNER_SCHEMA: schema.runner,
      MEMPLANE_WORKER_NAME: name,
      MEMPLANE_HANG_IN: 'caller',
      ...extra,
    });
    children.push(child);
    child.child.on('message', (message: { type?: string }) => {
      if (message.type === 'step-ran') stepRuns.push(name);
    });
    return child;
  }

  /** Starts the caller, which memorizes on revision 2 (the audit step inserted), and kills it inside the audit step. */
  async function killCallerMidStep(schema: { store: string; runner: string }, extra: Record<string, string> = {}): Promise<string> {
    const caller = start('caller', schema, { MEMPLANE_ROLE: 'memorize', ...extra });
    const { runId } = await caller.message<{ type: 'in-step'; runId: string }>('in-step');
    caller.child.kill('SIGKILL');
    expect(await caller.exited).toBe('SIGKILL');
    return runId;
  }

  /** An engine of the test process on the same store, with the synchronous runner and the audit step registered. */
  async function openEngine(schema: { store: string }): Promise<MemoryEngine> {
    const engine = await createMemoryEngine({ scope: companyScope, store: createPostgresEngineStore({ connectionString: url, schema: schema.store, maxConnections: 2 }), runner: createSyncRunner(), steps: [auditStep] });
    closing.push(() => engine.close());
    return engine;
  }

  /** Resolves once the run's checkpoint has the status, woken by the runner's notifications (no polling). */
  async function checkpointReaches(runnerSchema: string, runId: string, status: string): Promise<Record<string, unknown>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const notified = new Set<() => void>();
      client.on('notification', () => notified.forEach((wake) => wake()));
      await client.query(`LISTEN "${runnerSchema}_runs"`);
      for (;;) {
        const woken = new Promise<void>((resolve) => notified.add(resolve));
        const { rows } = await client.query(`SELECT status, next_step, step_ids, waiting FROM "${runnerSchema}".engine_run_checkpoints WHERE run_id = $1`, [runId]);
        if (rows[0]?.status === status) return rows[0] as Record<string, unknown>;
        await woken;
        notified.clear();
      }
    } finally {
      await client.end();
    }
  }

  /** The items the same memorize makes on a fresh engine with the same pipeline (the synchronous runner, in memory). */
  async function referenceItemCount(): Promise<number> {
    const engine = await createMemoryEngine({ scope: companyScope, store: createInMemoryStore() });
    await engine.insertAfter('extract_items', auditStep);
    const result = await engine.memorize(scope, crashConversation);
    await engine.close();
    return result.itemIds.length;
  }

  it('a worker in another process finishes the run from its checkpoint: the items once, one run log row, and the same memorize is then a duplicate', async () => {
    const schema = names();
    const runId = await killCallerMidStep(schema);
    const resumer = start('resumer', schema, { MEMPLANE_ROLE: 'worker' });
    const logged = await resumer.message<{ type: 'run-logged'; runId: string; status: string }>('run-logged');
    expect(logged).toMatchObject({ runId, status: 'ok' });
    expect(stepRuns).toEqual(['resumer']);
    await checkpointReaches(schema.runner, runId, 'ok');

    const engine = await openEngine(schema);
    const expected = await referenceItemCount();
    expect(expected).toBeGreaterThan(0);
    const items = await engine.listItems({ companyId: 'acme', agentId: 'planner' }, {}, { limit: 100 });
    expect(items).toHaveLength(expected);
    expect(new Set(items.map((item) => item.textHash)).size).toBe(expected);
    const runs = await engine.listRuns();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ id: runId, flow: 'memorize', status: 'ok', pipelineRevision: 2, scopeRange: { companyId: ['acme'], agentId: ['planner'] }, failures: [] });
    expect(runs[0]!.inputSummary).toMatch(/^conversation: 2 messages/);
    expect(runs[0]!.outputSummary).toBe(`${expected} items, 0 reinforced`);
    // The interrupted step ran again in the resumer, retried by the queue; the ones before it ran once, in the caller.
    expect(runs[0]!.steps.map((step) => step.stepId)).toEqual(['ingest_resource', 'preprocess_multimodal', 'extract_items', 'audit_candidates', 'dedupe_merge', 'categorize_items', 'infer_intention', 'persist_index']);
    expect(runs[0]!.steps.find((step) => step.stepId === 'audit_candidates')?.detail).toMatch(/retried by the queue.*audited by resumer/);

    const again = await engine.memorize(scope, crashConversation);
    expect(again.duplicate).toBe(true);
    expect(await engine.listItems({ companyId: 'acme', agentId: 'planner' }, {}, { limit: 100 })).toHaveLength(expected);
    expect((await engine.listRuns()).map((run) => run.status)).toEqual(['ok', 'ok']);
  });

  it('a worker without the step, or of another engine, leaves the run waiting with the reason and writes nothing; a worker with both resumes it', async () => {
    const schema = names();
    const foreign = names();
    const runId = await killCallerMidStep(schema);
    // The step is taken out of the pipeline meanwhile, so an engine without it can open the store.
    const engine = await openEngine(schema);
    await engine.rollback(1);

    const missing = start('missing', schema, { MEMPLANE_ROLE: 'worker', MEMPLANE_AUDIT_STEP: '0' });
    const refusal = await missing.message<{ type: 'runner-error'; message: string }>('runner-error');
    expect(refusal.message).toContain(`cannot resume run ${runId} at step audit_candidates`);
    expect(refusal.message).toContain('pipeline revision 2 uses steps not registered in this process (user:audit_candidates)');
    missing.child.send({ type: 'stop' });
    expect(await missing.exited).toBe(0);

    // Another engine (another scope schema, its own store) with the same step registered, on the same queue.
    const other = start('other', { store: foreign.store, runner: schema.runner }, { MEMPLANE_ROLE: 'worker', MEMPLANE_SCOPE: 'tenant' });
    const ignored = await other.message<{ type: 'runner-error'; message: string }>('runner-error');
    expect(ignored.message).toContain(`cannot resume run ${runId} at step audit_candidates`);
    expect(ignored.message).toContain('no engine attached to the runner in this process is the one that started it');
    other.child.send({ type: 'stop' });
    expect(await other.exited).toBe(0);

    const waiting = await checkpointReaches(schema.runner, runId, 'running');
    expect(waiting).toMatchObject({ next_step: 3, waiting: ignored.message });
    expect((waiting.step_ids as string[])[3]).toBe('audit_candidates');
    expect(await engine.listItems({ companyId: 'acme', agentId: 'planner' }, {}, { limit: 100 })).toEqual([]);
    expect(await engine.listRuns()).toEqual([]);
    // Neither worker wrote anything: no resource, item or run log row in the caller's store or the other engine's.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const store of [schema.store, foreign.store]) {
      const { rows } = await client.query(`SELECT (SELECT count(*) FROM "${store}".resources) + (SELECT count(*) FROM "${store}".items) + (SELECT count(*) FROM "${store}".run_log) AS written`);
      expect(Number(rows[0].written)).toBe(0);
    }
    await client.end();
    expect(stepRuns).toEqual([]);

    const able = start('able', schema, { MEMPLANE_ROLE: 'worker' });
    expect(await able.message<{ type: 'run-logged'; runId: string; status: string }>('run-logged')).toMatchObject({ runId, status: 'ok' });
    await checkpointReaches(schema.runner, runId, 'ok');
    expect(stepRuns).toEqual(['able']);
    const runs = await engine.listRuns();
    expect(runs.map((run) => [run.id, run.status, run.pipelineRevision])).toEqual([[runId, 'ok', 2]]);
    expect(await engine.listItems({ companyId: 'acme', agentId: 'planner' }, {}, { limit: 100 })).toHaveLength(await referenceItemCount());
  });

  it('a caller alive with a submit-only runner gets the outcome of the run a worker process ran, and the run log keeps one row of it', async () => {
    const schema = names();
    const runner = createPgBossRunner({ connectionString: url, schema: schema.runner, work: false, pollingIntervalSeconds: 0.5 });
    await runner.start();
    closing.push(() => runner.stop());
    const engine = await createMemoryEngine({ scope: companyScope, store: createPostgresEngineStore({ connectionString: url, schema: schema.store, maxConnections: 2 }), runner });
    closing.push(() => engine.close());
    await engine.insertAfter('extract_items', auditStep);
    const worker = start('worker', schema, { MEMPLANE_ROLE: 'worker' });
    await worker.message('ready');
    const result = await engine.memorize(scope, crashConversation);
    // Both wrote the row: the worker before it marked the run done, the caller after it returned.
    expect(await worker.message<{ type: 'run-logged'; runId: string; status: string }>('run-logged')).toMatchObject({ runId: result.runId, status: 'ok' });
    expect(stepRuns).toEqual(['worker']);
    const runs = await engine.listRuns();
    expect(runs.map((run) => [run.id, run.status])).toEqual([[result.runId, 'ok']]);
    expect(result.itemIds).toHaveLength(await referenceItemCount());
  });

  it('a run whose step job is lost for good (its worker died more often than crashRetries allows) ends failed, logged by another worker, with nothing written', async () => {
    const schema = names();
    const runId = await killCallerMidStep(schema, { MEMPLANE_CRASH_RETRIES: '0' });
    const survivor = start('survivor', schema, { MEMPLANE_ROLE: 'worker', MEMPLANE_CRASH_RETRIES: '0' });
    expect(await survivor.message<{ type: 'run-logged'; runId: string; status: string }>('run-logged')).toMatchObject({ runId, status: 'failed' });
    await checkpointReaches(schema.runner, runId, 'failed');
    expect(stepRuns).toEqual([]);
    const engine = await openEngine(schema);
    const [run, ...others] = await engine.listRuns();
    expect(others).toEqual([]);
    expect(run).toMatchObject({ id: runId, status: 'failed', outputSummary: 'failed', failures: [`MEMORY_API_CALL: Run ${runId} stopped at step audit_candidates: its job failed and no retry remains (workers lost or unable to resume it).`] });
    expect(run!.steps.map((step) => [step.stepId, step.status]).slice(-2)).toEqual([['extract_items', 'ok'], ['audit_candidates', 'failed']]);
    expect(await engine.listItems({ companyId: 'acme', agentId: 'planner' }, {}, { limit: 100 })).toEqual([]);
    // Nothing half-written makes the content look memorized: the same memorize now writes its items.
    const again = await engine.memorize(scope, crashConversation);
    expect(again.duplicate).toBe(false);
    expect(again.itemIds).toHaveLength(await referenceItemCount());
  });
});
