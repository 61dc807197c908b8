import { createMem0Adapter } from '@memplane/mem0';
import { createMem0Fake } from '../adapters/mem0/src/testing/mem0-fake-server';
import type { Benchmark } from './bench-harness';
import { budgetTable, interceptWithFake } from './hosted-adapter-budget';
import { replayingFetch } from './replayed-responses';

const options = { rounds: 62, callsPerRound: 40, warmupCalls: 100 };
const seededRecords = 120;

/**
 * The CPU `@memplane/mem0` adds over calling mem0ai's `MemoryClient` directly, on replayed
 * responses of the mem0 fake. Both variants send the same request: the company's `app_id`,
 * the agent's scope metadata and the page size.
 */
export const mem0OverheadBenchmark: Benchmark = {
  name: 'mem0-overhead',
  description:
    "The CPU `@memplane/mem0` adds per query and list over calling mem0ai `MemoryClient` directly, on replayed mem0 responses, against the hosted adapters' budget (≤ 250 µs for a query of 10, ≤ 600 µs for a list of 50).",
  async run() {
    process.env.MEM0_TELEMETRY = 'false';
    const { MemoryClient } = await import('mem0ai');
    const figures: Record<string, unknown> = { seededRecords, ...options };
    const fake = createMem0Fake({ host: 'https://api.mem0.bench' });
    const intercepted = await interceptWithFake(fake.handlers);
    // mem0ai reads the global fetch on every call; msw patched it at listen, so the replay records through the fake.
    const realFetch = globalThis.fetch;
    globalThis.fetch = replayingFetch(realFetch);
    try {
      const scope = { companyId: 'bench-company', agentId: 'bench-agent' };
      const adapter = createMem0Adapter({ apiKey: fake.apiKey, baseURL: fake.host });
      for (let start = 0; start < seededRecords; start += 10) {
        await adapter.upsertRecords({
          bindingKey: 'bench',
          scope,
          source: { kind: 'issue_comment', companyId: scope.companyId, issueId: 'issue-1', commentId: `comment-${start}` },
          records: Array.from({ length: 10 }, (_, offset) => ({
            text: `Fact ${start + offset}: the deploy window is Tuesday at 14:00 UTC and reviews want small pull requests.`,
            metadata: { topic: 'deploys', priority: (start + offset) % 3 },
          })),
        });
      }
      const client = new MemoryClient({ apiKey: fake.apiKey, host: fake.host });
      const filters = { AND: [{ app_id: scope.companyId }, { metadata: { memplane_agent: scope.agentId } }] };
      const query = 'when is the deploy window';
      const table = await budgetTable(
        "mem0: the adapter's own CPU per call against the budget (120 records in scope)",
        {
          'query (topK 10)': { direct: () => client.search(query, { filters, topK: 10 }), adapter: () => adapter.query({ bindingKey: 'bench', scope, query, topK: 10 }) },
          'list (limit 50)': { direct: () => client.getAll({ filters, page: 1, pageSize: 50 }), adapter: () => adapter.list({ bindingKey: 'bench', scope, limit: 50 }) },
        },
        options,
        figures,
        [
          'Both variants call the same stateful fake of the mem0 platform (`adapters/mem0/src/testing/`): the direct variant is a plain mem0ai `MemoryClient` sending the filters and page size the adapter sends. The adapter adds request and result validation (core), its own check of the response and of every record\'s scope, snippet mapping, an abortable attempt under core `callWithRetry`, usage and, for list, the signed cursor.',
        ],
      );
      return { figures, tables: [table] };
    } finally {
      globalThis.fetch = realFetch;
      intercepted.close();
    }
  },
};
