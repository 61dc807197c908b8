/**
 * A worker process for the queued runner's crash test: a pg-boss runner that takes step jobs and
 * resumes runs other processes started, by rebuilding the test pipeline. The `middle` step hangs
 * in the worker a run names in `hangIn` (the test kills it there).
 */
import { createPgBossRunner } from '../pg-boss-runner';
import { testSteps } from './queued-test-pipeline';

const url = process.env.MEMPLANE_TEST_POSTGRES_URL;
const schema = process.env.MEMPLANE_TEST_SCHEMA;
if (url === undefined || schema === undefined) throw new TypeError('The runner worker needs MEMPLANE_TEST_POSTGRES_URL and MEMPLANE_TEST_SCHEMA.');
const runner = createPgBossRunner({
  connectionString: url,
  schema,
  expireInSeconds: 2,
  maintenanceIntervalSeconds: 1,
  pollingIntervalSeconds: 0.5,
  resolveRun: async () => ({ steps: testSteps(), services: undefined }),
});
await runner.start();
process.send?.({ type: 'ready' });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stop') void runner.stop().then(() => process.exit(0));
});
