import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '@memplane/core';
import { provider as markdownProvider } from '@memplane/markdown/provider';
import { provider as memoryProvider } from '@memplane/memory/provider';
import {
  createMemoryService,
  createMemoryTools,
  type MemoryActor,
  type MemoryCallContext,
  type MemoryToolContext,
} from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { countRows, lines, missingRowsNote, operationRows, section, table, type DemoWriter } from './demo-output';

/** Options of {@link runMemoryServiceDemo}. */
export interface MemoryServiceDemoOptions {
  /** Where the story is written, a chunk at a time. */
  write: DemoWriter;
  /** The folder for the SQLite file and the markdown. Default: a fresh temporary folder, removed afterwards. */
  dataDirectory?: string;
}

const acme = { admin: { kind: 'company', companyId: 'acme', userId: 'alice' } satisfies MemoryActor };
const globex = { admin: { kind: 'company', companyId: 'globex', userId: 'gus' } satisfies MemoryActor };
const agents = {
  planner: { kind: 'agent', companyId: 'acme', agentId: 'planner' },
  builder: { kind: 'agent', companyId: 'acme', agentId: 'builder' },
  scout: { kind: 'agent', companyId: 'globex', agentId: 'scout' },
} as const satisfies Record<string, MemoryActor>;
const heartbeat = (companyId: string): MemoryCallContext => ({ actor: { kind: 'system', component: 'heartbeat' }, companyId });

/**
 * The scripted agent company of `npm run demo`, on the embedded default (SQLite file plus
 * markdown in a temporary folder): 2 companies, 3 agents, a company default bound to markdown
 * and an agent override bound to the reference adapter. It hydrates a run, captures the run and
 * an issue comment, searches, corrects and forgets through the agent tools, shows that another
 * company stays out of reach, and prints the operation log and the per-binding counts.
 */
export async function runMemoryServiceDemo(options: MemoryServiceDemoOptions): Promise<void> {
  const { write } = options;
  const dataDirectory = options.dataDirectory ?? mkdtempSync(join(tmpdir(), 'memplane-demo-'));
  const counters = new Map<string, number>();
  const service = await createMemoryService({
    store: createSqliteMemoryServiceStore({ filename: join(dataDirectory, 'memplane.db') }),
    dataDirectory,
    // The two providers the bindings name, as their packages describe them: the service knows none of its own.
    providers: [markdownProvider, memoryProvider],
    createId: (prefix) => {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}_${String(next).padStart(4, '0')}`;
    },
  });
  try {
    write(`memplane memory service demo: 2 companies, 3 agents, embedded SQLite at ${join(dataDirectory, 'memplane.db')}\n`);

    section(write, '1. Bindings (control plane, recorded in the activity log)');
    const acmeControl = service.control({ actor: acme.admin });
    await acmeControl.createBinding({ key: 'default', providerId: 'markdown', hooks: { postRunCapture: true, issueCommentCapture: true } });
    await acmeControl.setTarget({ targetType: 'company' }, 'default');
    await acmeControl.createBinding({ key: 'builder-scratch', providerId: 'memory', hooks: { postRunCapture: true } });
    await acmeControl.setTarget({ targetType: 'agent', agentId: 'builder' }, 'builder-scratch');
    const globexControl = service.control({ actor: globex.admin });
    await globexControl.createBinding({ key: 'default', providerId: 'markdown' });
    await globexControl.setTarget({ targetType: 'company' }, 'default');
    const resolvedRows = [['agent', 'binding', 'provider', 'resolved by', 'capture hooks on']];
    for (const [control, companyId, agentId] of [
      [acmeControl, 'acme', 'planner'],
      [acmeControl, 'acme', 'builder'],
      [globexControl, 'globex', 'scout'],
    ] as const) {
      const { binding, resolvedBy } = await control.resolve(agentId);
      const hooks = Object.entries(binding.hooks).filter(([, on]) => on).map(([name]) => name);
      resolvedRows.push([`${companyId}/${agentId}`, binding.key, binding.providerId, resolvedBy === 'agent' ? 'agent override' : 'company default', hooks.join(', ') || '-']);
    }
    lines(write, table(resolvedRows));
    const activity = await acmeControl.listActivity();
    lines(write, `acme activity log: ${activity.items.map((entry) => entry.action).reverse().join(', ')} (by company:alice)`);

    section(write, '2. Issue comment capture (acme, ACME-12, opted in on "default")');
    const comment = await service.hooks.issueCommentCapture(heartbeat('acme'), {
      issueId: 'ACME-12',
      commentId: 'comment-1',
      body: 'We decided that billing deploys happen on Tuesdays after the 14:00 UTC freeze. Never deploy billing on Fridays.',
    });
    lines(write, `delivery to ${comment.bindingKey}: ${comment.deliveries.map((delivery) => delivery.status).join(', ')}; records written: ${comment.capture?.records?.length ?? 0}`);

    const tools = new Map(createMemoryTools(service).map((tool) => [tool.name, tool]));
    const tool = async (name: string, input: unknown, context: MemoryToolContext) => {
      const result = await tools.get(name)!.execute(input, context);
      // Name the acting agent: the same tool reads differently for each agent and company.
      const actor = context.actor.kind === 'agent' ? `${context.actor.companyId}/${context.actor.agentId} ` : '';
      lines(write, `${actor}${name} ${JSON.stringify(input)}\n  -> ${result.content.split('\n').join('\n     ')}`);
      return result;
    };
    await tool('memory.note', { text: 'Globex deploys on Fridays at noon.', kind: 'fact' }, { actor: agents.scout, heartbeatRunId: 'globex-run-1' });

    section(write, '3. Pre-run hydration for acme/planner (run acme-run-1 on ACME-12)');
    const hydration = await service.hooks.preRunHydrate(heartbeat('acme'), {
      agentId: 'planner',
      heartbeatRunId: 'acme-run-1',
      query: 'ACME-12: schedule the billing deploy. When can billing deploy?',
    });
    lines(write, `binding ${hydration.bindingKey} (${hydration.resolvedBy}); ${hydration.bundle.snippets.length} snippet(s); preamble:`);
    lines(write, hydration.preamble === '' ? '(empty)' : hydration.preamble.split('\n').map((line) => `  | ${line}`));

    section(write, '4. Post-run capture');
    const plannerRun = await service.hooks.postRunCapture(heartbeat('acme'), {
      agentId: 'planner',
      heartbeatRunId: 'acme-run-1',
      issueId: 'ACME-12',
      output: { text: 'Scheduled the billing deploy for Tuesday at 15:00 UTC. We decided that the staging database is rebuilt nightly.' },
    });
    lines(write, `planner run -> ${plannerRun.bindingKey}: ${plannerRun.deliveries[0]?.status}; records written: ${plannerRun.capture?.records?.length ?? 0}`);
    const builderRun = await service.hooks.postRunCapture(heartbeat('acme'), {
      agentId: 'builder',
      heartbeatRunId: 'acme-run-2',
      issueId: 'ACME-12',
      output: { text: 'Built the billing release candidate. The build cache lives on the runner disk.' },
    });
    lines(write, `builder run -> ${builderRun.bindingKey}: ${builderRun.deliveries[0]?.status}; extraction job ${builderRun.capture?.jobs?.[0]?.status}`);
    const acmeRuntime = service.runtime(heartbeat('acme'));
    for (let poll = 1; poll <= 2; poll += 1) {
      const refresh = await acmeRuntime.refreshExtractionJobs();
      lines(write, `refresh ${poll}: ${refresh.jobs.map((job) => `${job.id} ${job.status}`).join(', ')}`);
    }

    section(write, '5. Agent tools: search, correct, forget');
    const planner: MemoryToolContext = { actor: agents.planner, heartbeatRunId: 'acme-run-3', issueId: 'ACME-12' };
    const found = await tool('memory.search', { query: 'when does billing deploy' }, planner);
    const results = found.isError ? [] : (found.data as { results: Array<{ recordId: string; text: string }> }).results;
    const schedule = results.find((result) => result.text.includes('15:00'));
    if (schedule !== undefined) {
      const corrected = await tool('memory.correct', { recordId: schedule.recordId, text: 'Scheduled the billing deploy for Tuesday at 16:00 UTC.', reason: 'the freeze was extended' }, planner);
      if (!corrected.isError) await tool('memory.get', { recordId: (corrected.data as { recordId: string }).recordId }, planner);
    }
    const staging = (await tool('memory.search', { query: 'staging database' }, planner));
    const stagingId = staging.isError ? undefined : (staging.data as { results: Array<{ recordId: string }> }).results[0]?.recordId;
    if (stagingId !== undefined) {
      await tool('memory.forget', { recordIds: [stagingId] }, planner);
      await tool('memory.search', { query: 'staging database' }, planner);
    }
    await tool('memory.search', { query: 'build cache' }, { actor: agents.builder, heartbeatRunId: 'acme-run-4' });

    section(write, '6. Isolation: acme/planner asks for globex memory');
    try {
      await service.runtime({ actor: agents.planner }).query({ query: 'Fridays', scope: { companyId: 'globex' } });
      lines(write, 'UNEXPECTED: the query went through');
    } catch (error) {
      lines(write, `refused: ${MemoryError.isInstance(error) ? `${error.code}: ${error.message}` : String(error)}`);
    }
    const fridays = await tool('memory.search', { query: 'deploy Fridays' }, planner);
    lines(write, `globex's note in acme's results: ${fridays.content.includes('Globex') ? 'YES (a leak!)' : 'no'}`);

    section(write, '7. Operation log (acme, oldest first)');
    const acmeExplorer = service.explorer({ actor: acme.admin });
    const log = await acmeExplorer.listOperations({ limit: 100 });
    lines(write, operationRows([...log.items].reverse()));
    lines(write, missingRowsNote('acme', log.items));
    lines(write, `globex log: ${(await service.explorer({ actor: globex.admin }).listOperations()).items.length} operation(s), none of acme's`);

    section(write, '8. Per-binding counts');
    lines(write, countRows('acme', await acmeExplorer.countOperations()));
    lines(write, countRows('globex', await service.explorer({ actor: globex.admin }).countOperations()));
    const deliveries = await acmeExplorer.listHookDeliveries({ limit: 100 });
    lines(write, `acme hook deliveries: ${deliveries.items.map((delivery) => `${delivery.hookKind}->${delivery.receiver} ${delivery.status}`).reverse().join('; ')}`);
    const metrics = service.metrics();
    lines(write, `service metrics: ${metrics.operations} operations, ${metrics.failedOperations} failed, ${metrics.deniedOperations} denied, ${metrics.droppedOutOfScope} dropped out of scope`);
  } finally {
    await service.close();
    if (options.dataDirectory === undefined) rmSync(dataDirectory, { recursive: true, force: true });
  }
}
