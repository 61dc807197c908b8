import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { company } from './test-support/paperclip-fixtures';
import { startWorker, workerModes, type StartedWorker } from './test-support/worker-harness';
import { filesUnder } from './test-support/files-under';

const markdownCompany = { bindings: [{ key: 'default', providerId: 'markdown' }], default: 'default' };
const run = (companyId: string, agentId: string, runId: string) => ({ companyId, agentId, runId, projectId: `${companyId}-project` });

let worker: StartedWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});


const recordIdOf = (result: { data?: unknown }) => {
  const data = result.data as { result?: { recordIds?: string[]; records?: Array<{ recordId?: string; id?: string }> } };
  return data.result?.recordIds?.[0] ?? data.result?.records?.[0]?.recordId ?? data.result?.records?.[0]?.id;
};

describe.each(workerModes)('memory_forget and memory_correct through the plugin, service in %s mode', (mode) => {
  it('forgets a note so its text is gone from the files, and corrects another, scoped to the run agent', async () => {
    worker = await startWorker({ acme: markdownCompany }, {}, undefined, mode);
    const { harness } = worker;
    harness.seed({ companies: [company('acme')] });
    const wrong = await harness.executeTool('memory_note', { text: 'The vendor contact is Ada Quill.' }, run('acme', 'planner', 'run-1'));
    const stale = await harness.executeTool('memory_note', { text: 'Invoices go out on the 5th.' }, run('acme', 'planner', 'run-1'));
    const wrongId = recordIdOf(wrong);
    const staleId = recordIdOf(stale);
    expect(wrongId).toEqual(expect.any(String));
    expect(staleId).toEqual(expect.any(String));

    // Another agent of the company cannot forget the planner's note.
    const foreign = await harness.executeTool('memory_forget', { recordIds: [wrongId] }, run('acme', 'builder', 'run-2'));
    expect(await filesUnder(join(worker.folder, 'markdown', 'acme'))).toContain('Ada Quill');
    if (mode === 'worker') {
      // The service refuses the handle before the provider, and the tool says nothing was forgotten.
      expect(foreign.content).toBe('Forgot 0 record(s). Skipped 1: 1 not yours to forget.');
      expect((foreign.data as { result: { forgotten: number; warnings: Array<{ type: string }> } }).result).toMatchObject({
        forgotten: 0,
        warnings: [expect.objectContaining({ type: 'scope_violation' })],
      });
    } else {
      // The server runs the worker's operator token, so the worker keeps the agent to its own records and sends nothing.
      expect(foreign.error).toMatch(/^MEMORY_SCOPE_VIOLATION: .*none of the records is agent "builder"'s own/);
      const foreignCorrect = await harness.executeTool('memory_correct', { recordId: staleId, text: 'Invoices never go out.' }, run('acme', 'builder', 'run-2'));
      expect(foreignCorrect.error).toMatch(/^MEMORY_SCOPE_VIOLATION/);
      const writes = (await worker.operations('acme', { runId: 'run-2' })).filter((entry) => entry.operation === 'forget' || entry.operation === 'correct');
      expect(writes).toEqual([]);
    }

    const forgotten = await harness.executeTool('memory_forget', { recordIds: [wrongId] }, run('acme', 'planner', 'run-3'));
    expect(forgotten.error).toBeUndefined();
    expect(forgotten.content).toBe('Forgot 1 record(s).');
    expect((forgotten.data as { result: { forgotten: number } }).result.forgotten).toBe(1);
    const corrected = await harness.executeTool('memory_correct', { recordId: staleId, text: 'Invoices go out on the 1st.', reason: 'policy changed' }, run('acme', 'planner', 'run-3'));
    expect(corrected.error).toBeUndefined();
    await worker.service.flush();

    const files = await filesUnder(join(worker.folder, 'markdown', 'acme'));
    expect(files).not.toContain('Ada Quill');
    const search = await harness.executeTool('memory_search', { query: 'invoices' }, run('acme', 'planner', 'run-4'));
    expect(search.content).toContain('on the 1st');
    // Over HTTP the worker reads each record before it forgets or corrects it (the ownership check): those reads are logged too.
    const operations = (await worker.operations('acme', { runId: 'run-3' })).filter((entry) => entry.operation !== 'get');
    expect(operations.map((entry) => [entry.operation, entry.status, entry.attributionMode])).toEqual([
      ['forget', 'succeeded', 'included_in_run'],
      ['correct', 'succeeded', 'included_in_run'],
    ]);
  });
});
