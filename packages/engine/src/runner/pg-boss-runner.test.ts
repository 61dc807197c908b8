import pg from 'pg';
import { afterAll, afterEach, expect, it } from 'vitest';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { startChildProcess, type TestChildProcess } from '../test-support/child-processes';
import { createPgBossRunner, type PgBossRunner } from './pg-boss-runner';
import { createSyncRunner } from './sync-runner';
import { testRun, testSteps } from './test-support/queued-test-pipeline';

describeWithPostgres('queued runner on pg-boss', (url) => {
  const schemas: string[] = [];
  const runners: PgBossRunner[] = [];
  const children: TestChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  afterAll(() => dropSchemas(url, schemas));

  async function startRunner(options: { work?: boolean } = {}): Promise<{ runner: PgBossRunner; schema: string }> {
    const schema = uniqueSchemaName('runner');
    schemas.push(schema);
    const runner = createPgBossRunner({ connectionString: url, schema, expireInSeconds: 2, maintenanceIntervalSeconds: 1, pollingIntervalSeconds: 0.5, ...options });
    runners.push(runner);
    await runner.start();
    return { runner, schema };
  }

  it('runs a pipeline step by step through the queue with the same outcome as the synchronous runner', async () => {
    const { runner } = await startRunner();
    const queued = await runner.run(testRun('run-happy', testSteps(), { input: 'x' }));
    const direct = await createSyncRunner().run(testRun('run-direct', testSteps(), { input: 'x' }));
    expect(queued.error).toBeUndefined();
    expect(queued.state).toEqual(direct.state);
    expect(queued.state.lookup).toEqual(new Map([['kept', new Float32Array([1, 2])]]));
    expect(queued.steps.map((step) => [step.stepId, step.status])).toEqual(direct.steps.map((step) => [step.stepId, step.status]));
    expect(queued.llmUsage).toEqual([{ stepId: 'finish', profile: 'default', model: 'test-model', inputTokens: 3 }]);
  });

  it('retries a step that fails with a retryable error, up to its retries, and then succeeds', async () => {
    const { runner } = await startRunner();
    const outcome = await runner.run(testRun('run-flaky', testSteps({ failuresBeforeSuccess: 2, retries: 2 })));
    expect(outcome.error).toBeUndefined();
    expect(outcome.steps.find((step) => step.stepId === 'middle')).toMatchObject({ status: 'ok', detail: expect.stringContaining('attempt 3') });
  });

  it('fails the run with the step error when retries run out or the error is not retryable, and runs no later step', async () => {
    const { runner } = await startRunner();
    const exhausted = await runner.run(testRun('run-exhausted', testSteps({ failuresBeforeSuccess: 5, retries: 1 })));
    expect(exhausted.error).toMatchObject({ code: 'MEMORY_API_CALL', message: 'flaky model, failure 2' });
    expect(exhausted.steps.map((step) => [step.stepId, step.status])).toEqual([['count', 'ok'], ['middle', 'failed']]);
    const fatal = await runner.run(testRun('run-fatal', testSteps({ failuresBeforeSuccess: 1, failure: 'fatal', retries: 3 })));
    expect(fatal.error).toMatchObject({ code: 'MEMORY_API_CALL', isRetryable: false });
    expect(fatal.steps.at(-1)).toMatchObject({ stepId: 'middle', status: 'failed', detail: expect.not.stringContaining('attempt 2') });
  });

  it('aborts a step that outlives its timeout', async () => {
    const { runner } = await startRunner();
    const outcome = await runner.run(testRun('run-timeout', testSteps({ timeoutMs: 300 })));
    expect(outcome.error).toMatchObject({ code: 'MEMORY_TIMEOUT' });
    expect(outcome.steps.at(-1)).toMatchObject({ stepId: 'middle', status: 'failed' });
  });

  it('resumes on another worker a run whose worker was killed mid-step, from the last checkpoint', async () => {
    const { runner, schema } = await startRunner({ work: false });
    const doomed = startChildProcess(new URL('./test-support/runner-worker-process.ts', import.meta.url), { MEMPLANE_TEST_POSTGRES_URL: url, MEMPLANE_TEST_SCHEMA: schema, MEMPLANE_WORKER_NAME: 'doomed' });
    children.push(doomed);
    await doomed.message('ready');
    const outcome = runner.run(testRun('run-crash', testSteps(), { hangIn: 'doomed' }));
    await doomed.message('in-step');
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toBe('SIGKILL');
    const survivor = startChildProcess(new URL('./test-support/runner-worker-process.ts', import.meta.url), { MEMPLANE_TEST_POSTGRES_URL: url, MEMPLANE_TEST_SCHEMA: schema, MEMPLANE_WORKER_NAME: 'survivor' });
    children.push(survivor);
    const result = await outcome;
    expect(result.error).toBeUndefined();
    // The first step ran once, in the dead worker; the interrupted step and the rest ran in the survivor.
    expect(result.state.visited).toEqual(['count@doomed', 'middle@survivor', 'finish@survivor']);
    expect(result.steps.find((step) => step.stepId === 'middle')?.detail).toContain('retried by the queue');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const jobs = await client.query(`SELECT data->>'stepIndex' AS step, state, retry_count FROM "${schema}".job WHERE name = 'memplane-engine-step' ORDER BY created_on`);
    await client.end();
    expect(jobs.rows).toEqual([
      { step: '0', state: 'completed', retry_count: 0 },
      { step: '1', state: 'completed', retry_count: 1 },
      { step: '2', state: 'completed', retry_count: 0 },
    ]);
  });
});
