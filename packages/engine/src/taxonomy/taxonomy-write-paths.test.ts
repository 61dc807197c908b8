import { MemoryValidationError } from '@memplane/core';
import { describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../engine/create-memory-engine';
import { orgProjectScope, steppingClock } from '../testing/engine-fixtures';
import { effectiveStability } from './item-governance';

const scope = { org: 'acme', project: 'apollo' };

async function engineAt(start = '2026-01-01T00:00:00.000Z') {
  let now = Date.parse(start);
  const engine = await createMemoryEngine({ scope: orgProjectScope, now: () => new Date((now += 1000)) });
  return { engine, advanceDays: (days: number) => (now += days * 86_400_000) };
}

describe('taxonomy on every write path', () => {
  it('curated writes: raw PII goes pending, low confidence goes pending, the rest is approved', async () => {
    const { engine } = await engineAt();
    const items = await engine.writeItems(scope, [
      { text: 'Card 4111 1111 1111 1111 is on file.' },
      { text: 'Maybe the client prefers email.', kind: 'hypothesis', confidence: 0.5 },
      { text: 'Masked card ****-****-****-1111 is on file.' },
      { text: 'The API lives at api.internal.' },
    ]);
    expect(items.map((item) => [item.status, item.piiRisk])).toEqual([['pending', 2], ['pending', 0], ['approved', 1], ['approved', 0]]);
  });

  it('corrections re-apply the rules: adding raw PII makes an approved item pending, removing it lets review approve', async () => {
    const { engine } = await engineAt();
    const [item] = await engine.writeItems(scope, [{ text: 'Escalations go to the on-call lead.' }]);
    const id = item?.id as string;
    const worse = await engine.correct(scope, id, { text: 'Escalations go to the on-call lead at +1 415 555 0100.' });
    expect(worse).toMatchObject({ status: 'pending', piiRisk: 2, version: 2 });
    await expect(engine.review(scope, id, 'approved')).rejects.toSatisfy((error: unknown) => MemoryValidationError.isInstance(error));
    const cleaned = await engine.correct(scope, id, { text: 'Escalations go to the on-call lead (number in the runbook).' });
    expect(cleaned).toMatchObject({ status: 'approved', piiRisk: 0, version: 3 });
  });

  it('a rejection stands through corrections and merges, and rejected items are never retrieved', async () => {
    const { engine } = await engineAt();
    const [item] = await engine.writeItems(scope, [{ text: 'Deploys happen on Fridays after lunch.' }]);
    const id = item?.id as string;
    expect(await engine.review(scope, id, 'rejected')).toMatchObject({ status: 'rejected' });
    expect(await engine.correct(scope, id, { text: 'Deploys happen on Fridays after lunch, always.' })).toMatchObject({ status: 'rejected' });
    expect((await engine.retrieve(scope, 'when do deploys happen')).items).toEqual([]);
    await engine.writeItems(scope, [{ text: 'Deploys happen on Fridays after lunch, always!' }]);
    const diff = await engine.evolve(scope);
    expect(diff.merged).toEqual([]);
  });

  it('evolve merges near duplicates, keeps the more confident one, re-applies the rules and emits a diff', async () => {
    const { engine } = await engineAt();
    const [first, second, other] = await engine.writeItems(scope, [
      { text: 'The staging database runs PostgreSQL 15 with pgvector.', kind: 'fact', confidence: 0.7 },
      { text: 'Staging database runs PostgreSQL 15 with pgvector', kind: 'fact', confidence: 0.9 },
      { text: 'Lunch is at noon.', kind: 'fact' },
    ]);
    const dry = await engine.evolve(scope, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, merged: [{ survivorId: second?.id, mergedIds: [first?.id] }] });
    expect((await engine.getItems(scope, [first?.id as string])).get(first?.id as string)?.mergedInto).toBeUndefined();
    const diff = await engine.evolve(scope);
    expect(diff.merged).toEqual([{ survivorId: second?.id, mergedIds: [first?.id] }]);
    const after = await engine.getItems(scope, [first?.id as string, second?.id as string, other?.id as string]);
    expect(after.get(first?.id as string)?.mergedInto).toBe(second?.id);
    expect(after.get(second?.id as string)).toMatchObject({ confidence: 0.9, status: 'approved', version: 2 });
    const found = await engine.retrieve(scope, 'staging database PostgreSQL');
    expect(found.items[0]?.item.id).toBe(second?.id);
    expect(found.items.map((entry) => entry.item.id)).not.toContain(first?.id);
    expect((await engine.evolve(scope)).merged).toEqual([]);
    const [run] = await engine.listRuns({ flow: 'evolve' });
    expect(run?.outputSummary).toBe('0 merges, 0 recategorized, intention - -> -');
  });

  it('facts decay with disuse and each use slows it; todos expire out of retrieval', async () => {
    const { engine, advanceDays } = await engineAt();
    const [fact, todo] = await engine.writeItems(scope, [
      { text: 'The quarterly report is due on the 15th.', kind: 'fact' },
      { text: 'Need to renew the TLS certificate.', kind: 'todo' },
    ]);
    expect(Date.parse(todo?.expiresAt as string) - Date.parse(todo?.createdAt as string)).toBe(14 * 86_400_000);
    const written = Date.parse(fact?.createdAt as string);
    const fresh = effectiveStability(fact!, fact?.createdAt as string);
    const thirtyDaysLater = new Date(written + 30 * 86_400_000).toISOString();
    expect(effectiveStability(fact!, thirtyDaysLater)).toBeCloseTo(fresh / 2, 5);
    expect(effectiveStability({ ...fact!, useCount: 1 }, thirtyDaysLater)).toBeCloseTo(fresh / Math.SQRT2, 5);
    expect((await engine.retrieve(scope, 'renew TLS certificate')).items[0]?.item.id).toBe(todo?.id);
    expect((await engine.getItems(scope, [todo?.id as string])).get(todo?.id as string)?.useCount).toBe(1);
    advanceDays(15);
    expect((await engine.retrieve(scope, 'renew TLS certificate')).items.map((entry) => entry.item.id)).not.toContain(todo?.id);
    advanceDays(200);
    const diff = await engine.evolve(scope);
    expect(diff.expired).toEqual([todo?.id]);
    expect(diff.fading).toEqual([fact?.id]);
  });
});
