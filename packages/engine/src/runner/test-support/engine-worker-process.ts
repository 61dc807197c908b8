/**
 * An engine process for the engine crash tests: a memory engine over a real Postgres store on a
 * pg-boss runner that takes step jobs. With `MEMPLANE_ROLE=memorize` it inserts the audit step
 * through the public pipeline API and memorizes the crash conversation (the test kills it inside
 * the audit step); with `worker` it only serves the queue, resuming runs other processes started.
 * `MEMPLANE_SCOPE=tenant` gives it another engine (another scope schema on its own store);
 * `MEMPLANE_AUDIT_STEP=0` leaves the audit step unregistered; `MEMPLANE_CRASH_RETRIES` sets the
 * runner's `crashRetries`. It reports the runner's background
 * errors (a step it hands over) and each run log row it writes.
 */
import { z } from 'zod';
import { createMemoryEngine } from '../../engine/create-memory-engine';
import type { EngineStore } from '../../store/engine-store';
import { createPostgresEngineStore } from '../../store/postgres/postgres-engine-store';
import { crashConversation } from '../../test-support/crash-conversation';
import { createPgBossRunner } from '../pg-boss-runner';
import { auditStep } from './engine-audit-step';

const environment = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new TypeError(`The engine worker needs ${name}.`);
  return value;
};

const url = environment('MEMPLANE_TEST_POSTGRES_URL');
const real = createPostgresEngineStore({ connectionString: url, schema: environment('MEMPLANE_TEST_STORE_SCHEMA'), maxConnections: 2 });
// The real store; only appendRun is wrapped, to tell the test a run log row was written.
const store: EngineStore = Object.assign(Object.create(real) as EngineStore, {
  async appendRun(run: Parameters<EngineStore['appendRun']>[0]) {
    await real.appendRun(run);
    process.send?.({ type: 'run-logged', runId: run.id, status: run.status });
  },
});
const runner = createPgBossRunner({
  connectionString: url,
  schema: environment('MEMPLANE_TEST_RUNNER_SCHEMA'),
  expireInSeconds: 2,
  maintenanceIntervalSeconds: 1,
  pollingIntervalSeconds: 0.5,
  handOverDelaySeconds: 0.5,
  crashRetries: Number(process.env.MEMPLANE_CRASH_RETRIES ?? '2'),
  onError: (error) => process.send?.({ type: 'runner-error', message: error instanceof Error ? error.message : String(error) }),
});
const scope = process.env.MEMPLANE_SCOPE === 'tenant' ? z.object({ tenantId: z.string() }) : z.object({ companyId: z.string(), agentId: z.string() });
const memorizer = process.env.MEMPLANE_ROLE === 'memorize';
// The memorizing process adds the step through the pipeline API; the others are given it as a registered step.
const steps = memorizer || process.env.MEMPLANE_AUDIT_STEP === '0' ? [] : [auditStep];
// The engine attaches its resolver before the runner takes any job.
const engine = await createMemoryEngine({ scope, store, runner, steps });
await runner.start();
process.on('message', (message: { type?: string }) => {
  if (message.type === 'stop') void runner.stop().then(() => engine.close()).then(() => process.exit(0));
});
if (memorizer) {
  await engine.insertAfter('extract_items', auditStep);
  process.send?.({ type: 'ready' });
  await engine.memorize({ companyId: 'acme', agentId: 'planner' }, crashConversation);
} else {
  process.send?.({ type: 'ready' });
}
