import type { MemoryScope, MemorySnippet, MemoryWarning } from '@memplane/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryRecordRegistryStore, MemoryRegisteredRecord } from '../store/memory-record-registry-store';
import { guardSnippets, type PlacementContext } from './result-scope-guard';

/** The registry in memory, with the same rules as the stores (checked by the store suite). */
function registryOf(entries: MemoryRegisteredRecord[]): MemoryRecordRegistryStore {
  return {
    registerRecords: async () => undefined,
    unregisterRecords: async () => undefined,
    async placeRecords(companyId, providerId, ids) {
      const wanted = new Set(ids);
      const matching = entries.filter((entry) => entry.providerId === providerId && wanted.has(entry.providerRecordId));
      return {
        own: matching.filter((entry) => entry.companyId === companyId),
        foreignIds: [...new Set(matching.filter((entry) => entry.companyId !== companyId).map((entry) => entry.providerRecordId))],
      };
    },
  };
}

const companies = ['acme', 'globex'] as const;
const agents = [undefined, 'planner', 'builder'] as const;

/** A record as it truly is, how the provider presents it, and whether the service wrote it. */
const recordArbitrary = fc.record({
  owner: fc.constantFrom(...companies),
  agentId: fc.constantFrom(...agents),
  presented: fc.constantFrom('honest', 'stripped', 'source-only', 'forged'),
  writtenThroughService: fc.boolean(),
});

describe('placing the records a provider returns', () => {
  it('never lets a record of another company, or of another agent, through, however the provider presents it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArbitrary, { maxLength: 12 }),
        fc.constantFrom(...agents),
        fc.constantFrom('own', 'own-and-shared', 'company' as const),
        async (records, readerAgentId, reach) => {
          const caller: MemoryScope = { companyId: 'acme' };
          // A forging provider can pass off a record the service never wrote: the documented limit. The property holds for the rest.
          const world = records.filter((record) => !(record.presented === 'forged' && !record.writtenThroughService && record.owner !== 'acme'));
          const registry = registryOf(
            world.flatMap((record, index) =>
              record.writtenThroughService
                ? [{ companyId: record.owner, bindingId: `bnd_${record.owner}`, providerId: 'shared', providerRecordId: `r-${index}`, scope: { companyId: record.owner, ...(record.agentId === undefined ? {} : { agentId: record.agentId }) }, registeredAt: 'now' }]
                : [],
            ),
          );
          const snippets: MemorySnippet[] = world.map((record, index) => {
            const handle = { providerKey: 'shared', providerRecordId: `r-${index}` };
            const text = `${record.owner}:${record.agentId ?? 'shared'}:${index}`;
            const trueScope = { companyId: record.owner, ...(record.agentId === undefined ? {} : { agentId: record.agentId }) };
            if (record.presented === 'stripped') return { handle, text };
            if (record.presented === 'source-only') return { handle, text, source: { kind: 'manual_note', companyId: record.owner } };
            if (record.presented === 'forged') return { handle, text, scope: { ...caller }, source: { kind: 'manual_note', companyId: 'acme' } };
            return { handle, text, scope: trueScope, source: { kind: 'manual_note', companyId: record.owner } };
          });
          const context: PlacementContext = { registry, scope: caller, providerId: 'shared', bindingId: 'bnd_acme', reach, ...(readerAgentId === undefined ? {} : { readerAgentId }) };
          const warnings: MemoryWarning[] = [];
          const { snippets: shown, dropped } = await guardSnippets(snippets, context, warnings, 'test result', 'snippets');
          expect(shown.length + dropped).toBe(snippets.length);
          for (const snippet of shown) {
            const index = Number(snippet.handle.providerRecordId.slice(2));
            const record = world[index]!;
            expect(record.owner).toBe('acme');
            if (readerAgentId !== undefined && reach !== 'company') {
              // An agent sees its own records, and shared ones only when the reach says so.
              if (record.presented !== 'forged' || record.writtenThroughService) {
                expect(record.agentId === readerAgentId || (reach === 'own-and-shared' && record.agentId === undefined)).toBe(true);
              }
            }
          }
          // Warnings name dropped records by id, never by their text.
          expect(JSON.stringify(warnings)).not.toMatch(/(acme|globex):(planner|builder|shared):/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
