import { MemoryConflictError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import type { RunLogRow } from '../engine-store-rows';
import { createInMemoryStore } from './memory-store';

const run = (id: string): RunLogRow => ({
  id, flow: 'retrieve', status: 'ok', pipelineRevision: 1, scopeRange: {}, inputSummary: '', outputSummary: '', steps: [], llmUsage: [], failures: [], startedAt: 't', finishedAt: 't',
});

describe('in-memory store', () => {
  it('rolls a failed transaction back without undoing a write made outside it meanwhile', async () => {
    const store = createInMemoryStore();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const inside = new Promise<void>((resolve) => { started = resolve; });
    const failing = store.transaction(async (tx) => {
      await tx.appendRun(run('inside'));
      started();
      await gate;
      throw new MemoryConflictError({ message: 'lost' });
    });
    await inside;
    const outside = store.appendRun(run('outside'));
    release();
    await expect(failing).rejects.toSatisfy((error: unknown) => MemoryConflictError.isInstance(error));
    await outside;
    expect((await store.listRuns({ limit: 10 })).map((row) => row.id)).toEqual(['outside']);
  });

  it('hands out frozen copies: a caller cannot change what the store holds', async () => {
    const store = createInMemoryStore();
    const original = run('a');
    await store.appendRun(original);
    (original as { id: string }).id = 'changed';
    const [stored] = await store.listRuns({ limit: 1 });
    expect(stored?.id).toBe('a');
    expect(Object.isFrozen(stored)).toBe(true);
  });
});
