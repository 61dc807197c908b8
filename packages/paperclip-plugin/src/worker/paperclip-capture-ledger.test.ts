import { createTestHarness } from '@paperclipai/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCaptureLedger } from './paperclip-capture-ledger';
import { workerTestManifest } from './test-support/paperclip-fixtures';

const ledgerOnFreshState = () => createCaptureLedger(createTestHarness({ manifest: workerTestManifest }).ctx);

describe('the capture ledger', () => {
  it('records the keys of a capture that settled, and none of one that failed or threw', async () => {
    const ledger = ledgerOnFreshState();
    expect(await ledger.once('acme', ['event:1', 'comment:a'], async () => false)).toBe(true);
    await expect(ledger.once('acme', ['event:1'], async () => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect(await ledger.once('acme', ['event:1', 'comment:a'], async () => true)).toBe(true);
    expect(await ledger.once('acme', ['event:2', 'comment:a'], async () => true)).toBe(false);
    // Another company's keys are its own.
    expect(await ledger.once('globex', ['event:1', 'comment:a'], async () => true)).toBe(true);
  });

  it('gives a claim the keys nobody recorded or holds, reports the held ones busy, and frees them on release', async () => {
    const ledger = ledgerOnFreshState();
    await ledger.once('acme', ['comment:stored'], async () => true);
    const first = await ledger.claim('acme', ['comment:stored', 'comment:a', 'comment:b', 'comment:a']);
    expect([...first.held].sort()).toEqual(['comment:a', 'comment:b']);
    expect([...first.busy]).toEqual([]);
    const racing = await ledger.claim('acme', ['comment:a', 'comment:c']);
    expect([...racing.held]).toEqual(['comment:c']);
    expect([...racing.busy]).toEqual(['comment:a']);
    racing.release();
    first.release();
    first.release();
    // Released without a record: free again.
    const again = await ledger.claim('acme', ['comment:a', 'comment:c']);
    expect([...again.held].sort()).toEqual(['comment:a', 'comment:c']);
    await again.record();
    again.release();
    expect([...(await ledger.claim('acme', ['comment:a', 'comment:c'])).held]).toEqual([]);
  });

  it('lets exactly one of any number of racing claims hold a key, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 8 }), fc.boolean(), async (racers, recordIt) => {
        const ledger = ledgerOnFreshState();
        const claims = await Promise.all(Array.from({ length: racers }, () => ledger.claim('acme', ['comment:x'])));
        expect(claims.filter((claim) => claim.held.has('comment:x'))).toHaveLength(1);
        const holder = claims.find((claim) => claim.held.has('comment:x'))!;
        if (recordIt) await holder.record();
        for (const claim of claims) claim.release();
        expect((await ledger.claim('acme', ['comment:x'])).held.size).toBe(recordIt ? 0 : 1);
      }),
      { numRuns: 30 },
    );
  });
});
