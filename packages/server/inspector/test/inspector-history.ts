import type { MemoryBinding, MemoryCostEventEntry, MemoryOperationEntry, MemoryService } from '@memplane/service';

const dayMs = 86_400_000;

/**
 * Two weeks of past operations and metered costs, written to the store directly: the service
 * stamps every operation with the current time, and the usage charts need days to draw. Counts
 * come from a fixed-seed generator, so every run draws the same picture. Agent `reviewer` only,
 * so the tests that filter by other agents see the live operations alone.
 */
export async function appendPastUsage(service: MemoryService, companyId: string, bindings: MemoryBinding[], now = Date.now()): Promise<void> {
  let seed = 7;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const operations: MemoryOperationEntry[] = [];
  const costs: MemoryCostEventEntry[] = [];
  const today = Math.floor(now / dayMs) * dayMs;
  for (let day = 13; day >= 1; day -= 1) {
    for (const [index, binding] of bindings.entries()) {
      const count = 6 + Math.floor(next() * 14) + index * 4;
      for (let call = 0; call < count; call += 1) {
        const at = new Date(today - day * dayMs + Math.floor(((call + 0.5) / count) * dayMs)).toISOString();
        const failed = next() < 0.08 + index * 0.05;
        const query = next() < 0.7;
        const id = `op_past_${binding.key}_${day}_${call}`;
        operations.push({
          id,
          companyId,
          bindingId: binding.id,
          bindingKey: binding.key,
          providerId: binding.providerId,
          operation: query ? 'query' : 'capture',
          status: failed ? 'failed' : 'succeeded',
          ...(failed ? { errorCode: 'MEMORY_TIMEOUT', errorMessage: 'The provider did not answer in time.' } : {}),
          actor: { kind: 'agent', id: 'reviewer' },
          scope: { companyId, agentId: 'reviewer' },
          usage: [],
          latencyMs: Math.round((2 + next() * 18 + (failed ? 40 : 0)) * (index + 1) * 10) / 10,
          ...(query && !failed ? { resultCount: next() < 0.6 + index * 0.2 ? 1 + Math.floor(next() * 5) : 0 } : {}),
          droppedOutOfScope: 0,
          warnings: [],
          createdAt: at,
        });
        if (!failed && !query) {
          costs.push({ id: `cost_past_${binding.key}_${day}_${call}`, companyId, operationId: id, bindingId: binding.id, bindingKey: binding.key, provider: binding.providerId, billingType: 'metered_api', embeddingTokens: 400, costCents: 1 + Math.floor(next() * 9), occurredAt: at });
        }
      }
    }
  }
  await service.store.appendOperations(operations);
  await service.store.appendCostEvents(costs);
}
