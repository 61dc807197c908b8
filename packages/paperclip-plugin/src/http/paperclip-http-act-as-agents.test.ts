import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { company } from '../worker/test-support/paperclip-fixtures';
import { startWorker, type StartedWorker } from '../worker/test-support/worker-harness';
import { filesUnder } from '../worker/test-support/files-under';

const markdownCompany = { bindings: [{ key: 'default', providerId: 'markdown' }], default: 'default' };
const run = (agentId: string, runId: string) => ({ companyId: 'acme', agentId, runId, projectId: 'acme-project' });
const recordIdOf = (result: { data?: unknown }) => (result.data as { result: { recordIds: string[] } }).result.recordIds[0] ?? '';

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});


/** Two agents' notes and one record of the whole company, written before the searches. */
async function seedMemory(started: StartedWorker): Promise<{ builderNote: string }> {
  started.harness.seed({ companies: [company('acme')] });
  await started.harness.executeTool('memory_note', { text: 'The planner keeps the release calendar.' }, run('planner', 'run-1'));
  const builder = await started.harness.executeTool('memory_note', { text: 'The builder keeps the release cache warm.' }, run('builder', 'run-2'));
  const admin = { actor: { kind: 'company' as const, companyId: 'acme', userId: 'owner', role: 'admin' as const }, companyId: 'acme' };
  await started.service.runtime(admin).upsertRecords({ records: [{ text: 'Every release is announced in the company channel.' }] });
  return { builderNote: recordIdOf(builder) };
}

describe('over memplane serve with a token that acts as agents (service.actAsAgents)', () => {
  it('runs an agent tool call on the server as that agent: logged with the agent as actor, reading its own and the shared records', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http', { actAsAgents: true });
    await seedMemory(worker);
    const found = await worker.harness.executeTool('memory_search', { query: 'release' }, run('planner', 'run-3'));
    expect(found.error).toBeUndefined();
    expect(found.content).toContain('The planner keeps the release calendar.');
    expect(found.content).toContain('Every release is announced in the company channel.');
    expect(found.content).not.toContain('builder');
    const notes = (await worker.operations('acme')).filter((entry) => entry.operation === 'record_upsert' && entry.heartbeatRunId !== undefined);
    expect(notes.map((entry) => entry.actor)).toEqual([{ kind: 'agent', id: 'planner' }, { kind: 'agent', id: 'builder' }]);
  });

  it('leaves holding an agent to itself to the server: another agent\'s record is refused there and its text stays', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http', { actAsAgents: true });
    const { builderNote } = await seedMemory(worker);
    const forgotten = await worker.harness.executeTool('memory_forget', { recordIds: [builderNote] }, run('planner', 'run-4'));
    // The server's service refuses the foreign handle before the provider, as in the worker mode, and nothing is counted.
    expect(forgotten.content).toBe('Forgot 0 record(s). Skipped 1: 1 not yours to forget.');
    expect((forgotten.data as { result: { forgotten: number; warnings: Array<{ type: string }> } }).result).toMatchObject({
      forgotten: 0,
      warnings: [expect.objectContaining({ type: 'scope_violation' })],
    });
    expect(await filesUnder(join(worker.folder, 'markdown', 'acme'))).toContain('The builder keeps the release cache warm.');
    const forgets = (await worker.operations('acme', { runId: 'run-4' })).filter((entry) => entry.operation === 'forget');
    expect(forgets.map((entry) => entry.actor)).toEqual([{ kind: 'agent', id: 'planner' }]);
  });

  it('without the option the worker forgets only the agent\'s own records and counts only those: another agent\'s is not yours, a missing one not found', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http');
    const { builderNote } = await seedMemory(worker);
    const own = recordIdOf(await worker.harness.executeTool('memory_note', { text: 'The planner moves standup to ten.' }, run('planner', 'run-5')));
    const missing = `${own}-missing`;
    const forgotten = await worker.harness.executeTool('memory_forget', { recordIds: [own, builderNote, missing] }, run('planner', 'run-5'));
    expect(forgotten.content).toBe('Forgot 1 record(s). Skipped 2: 1 not found, 1 not yours to forget.');
    expect((forgotten.data as { result: { forgotten: number; warnings: Array<{ type: string }> } }).result).toMatchObject({
      forgotten: 1,
      warnings: [expect.objectContaining({ type: 'scope_violation' }), expect.objectContaining({ type: 'not_found' })],
    });
    const files = await filesUnder(join(worker.folder, 'markdown', 'acme'));
    expect(files).toContain('The builder keeps the release cache warm.');
    expect(files).not.toContain('The planner moves standup to ten.');
  });

  it('without the option the server sees the operator, and the worker narrows the agent to its own records', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, 'http');
    await seedMemory(worker);
    const found = await worker.harness.executeTool('memory_search', { query: 'release' }, run('planner', 'run-3'));
    expect(found.content).toContain('The planner keeps the release calendar.');
    expect(found.content).not.toContain('Every release is announced');
    const notes = (await worker.operations('acme')).filter((entry) => entry.operation === 'record_upsert' && entry.heartbeatRunId !== undefined);
    expect(notes.map((entry) => entry.actor.kind)).toEqual(['operator', 'operator']);
  });
});
