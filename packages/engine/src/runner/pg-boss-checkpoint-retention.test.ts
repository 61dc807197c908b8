import pg from 'pg';
import { afterAll, afterEach, expect, it } from 'vitest';
import { describeWithPostgres, dropSchemas, uniqueSchemaName } from '../store/postgres/test-support/postgres-test-support';
import { createPgBossRunner, type PgBossRunner } from './pg-boss-runner';
import { insertCheckpoint } from './pg-boss-run-checkpoints';
import { testRun, testSteps } from './test-support/queued-test-pipeline';

// The checkpoints hold the pipeline state, which carries the flow's input (conversation text, file
// bytes): they must not outlive the run, or a forget could never reach them.
describeWithPostgres('the queued runner keeps no state of an ended run', (url) => {
  const schemas: string[] = [];
  const runners: PgBossRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  });
  afterAll(() => dropSchemas(url, schemas));

  async function startRunner(finishedRetentionSeconds?: number): Promise<{ runner: PgBossRunner; schema: string }> {
    const schema = uniqueSchemaName('retention');
    schemas.push(schema);
    const runner = createPgBossRunner({ connectionString: url, schema, pollingIntervalSeconds: 0.5, ...(finishedRetentionSeconds === undefined ? {} : { finishedRetentionSeconds }) });
    runners.push(runner);
    await runner.start();
    return { runner, schema };
  }

  async function rowsOf(schema: string): Promise<Array<{ run_id: string; status: string; state: Buffer }>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(`SELECT run_id, status, state FROM "${schema}".engine_run_checkpoints ORDER BY run_id`)).rows;
    } finally {
      await client.end();
    }
  }

  it('deletes a run\'s checkpoint, and the input it carried, once the caller has the outcome (success or failure)', async () => {
    const { runner, schema } = await startRunner();
    const secret = 'The vault code is 4417-alpha.';
    const ok = await runner.run(testRun('run-delivered', testSteps(), { input: secret }));
    expect(ok.error).toBeUndefined();
    expect(ok.state.input).toBe(secret);
    const failed = await runner.run(testRun('run-failed', testSteps({ failuresBeforeSuccess: 1, failure: 'fatal' }), { input: secret }));
    expect(failed.error).toMatchObject({ isRetryable: false });
    const rows = await rowsOf(schema);
    expect(rows).toEqual([]);
  });

  /** Writes checkpoints as a worker would have left them. */
  async function insertRows(schema: string, rows: Array<{ runId: string; status: 'ok' | 'running'; input: string }>): Promise<void> {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const client = await pool.connect();
    try {
      for (const row of rows) {
        await insertCheckpoint(client, schema, {
          runId: row.runId, flow: 'memorize', pipelineRevision: 1, stepIds: ['count'], steps: [], llmUsage: [], meta: {},
          nextStep: row.status === 'ok' ? 1 : 0, status: row.status, state: { input: row.input },
        });
      }
    } finally {
      client.release();
      await pool.end();
    }
  }

  it('sweeps the checkpoint of an ended run nobody took after the retention, and never one still running', async () => {
    const { runner, schema } = await startRunner(0);
    // A run whose caller died after a worker ended it, and one still in flight.
    await insertRows(schema, [{ runId: 'run-orphan', status: 'ok', input: 'Orphaned input text.' }, { runId: 'run-live', status: 'running', input: 'Live input text.' }]);
    expect((await rowsOf(schema)).map((row) => row.run_id)).toEqual(['run-live', 'run-orphan']);
    expect(await runner.purgeFinished()).toBe(1);
    const left = await rowsOf(schema);
    expect(left.map((row) => [row.run_id, row.status])).toEqual([['run-live', 'running']]);
    expect(left.some((row) => row.state.toString('latin1').includes('Orphaned input text.'))).toBe(false);
  });

  it('keeps an ended run within the retention, so a caller still waiting can read it', async () => {
    const { runner, schema } = await startRunner(3600);
    await insertRows(schema, [{ runId: 'run-recent', status: 'ok', input: 'Recent input text.' }]);
    expect(await runner.purgeFinished()).toBe(0);
    expect((await rowsOf(schema)).map((row) => row.run_id)).toEqual(['run-recent']);
  });
});
