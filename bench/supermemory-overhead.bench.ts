import { createSupermemoryAdapter, toSupermemoryContainerTag } from '@memplane/supermemory';
import Supermemory from 'supermemory';
import { createSupermemoryFake } from '../adapters/supermemory/src/testing/supermemory-fake-api';
import type { Benchmark } from './bench-harness';
import { budgetTable, interceptWithFake } from './hosted-adapter-budget';
import { replayingFetch } from './replayed-responses';

const fakeOrigin = 'https://api.supermemory.ai';
const apiKey = 'sm_bench_key';
const scope = { companyId: 'bench-company' };
const bindingKey = 'bench';
const options = { rounds: 62, callsPerRound: 40, warmupCalls: 200 };

export const supermemoryOverheadBenchmark: Benchmark = {
  name: 'supermemory-overhead',
  description:
    "The CPU @memplane/supermemory adds per query and list over calling the supermemory SDK directly, on replayed Supermemory responses, against the hosted adapters' budget (≤ 250 µs for a query of 10, ≤ 600 µs for a list of 50).",
  async run() {
    const figures: Record<string, unknown> = { ...options };
    const fake = createSupermemoryFake({ baseURL: fakeOrigin });
    const intercepted = await interceptWithFake(fake.handlers);
    // The SDK captures fetch when it is built, so the replaying fetch goes in first; msw patched the one it wraps.
    const realFetch = globalThis.fetch;
    globalThis.fetch = replayingFetch(realFetch);
    try {
      const client = new Supermemory({ apiKey, baseURL: fakeOrigin, maxRetries: 0, logLevel: 'off' });
      const adapter = createSupermemoryAdapter({ apiKey, baseURL: fakeOrigin, cursorSecret: 'bench-cursor-secret-0123' });
      await adapter.upsertRecords({
        bindingKey,
        scope,
        source: { kind: 'manual_note', companyId: scope.companyId },
        records: Array.from({ length: 60 }, (_, index) => ({ text: `Deploy note ${index}: the deploy window is Tuesday at 14:00 UTC.`, metadata: { kind: 'fact', index } })),
      });
      const containerTag = toSupermemoryContainerTag(scope.companyId);
      // The direct calls send the bodies the adapter sends, so both replay the same bytes.
      const filters = { AND: [{ key: 'mp_companyId', value: scope.companyId }] };
      const searchBody = { q: 'deploy window', containerTag, searchMode: 'memories' as const, limit: 10, filters };
      const listBody = { containerTags: [containerTag], page: 1, limit: 50, sort: 'createdAt', order: 'asc', filters };
      const table = await budgetTable(
        "Supermemory: the adapter's own CPU per call against the budget (60 entries in one container)",
        {
          'query (topK 10)': { direct: () => client.search(searchBody), adapter: () => adapter.query({ bindingKey, scope, query: 'deploy window', topK: 10 }) },
          'list (limit 50)': { direct: () => client.post('/v4/memories/list', { body: listBody }), adapter: () => adapter.list({ bindingKey, scope, limit: 50 }) },
        },
        options,
        figures,
        [
          'Both variants call the same stateful fake of the Supermemory API (`adapters/supermemory/src/testing/`) with identical request bodies. The adapter adds request validation (core), the container-tag hash, the timeout and retry wrapper, validation of the response, metadata decoding, the per-record scope check, result validation (core) and, for list, signing the cursor.',
        ],
      );
      return { figures, tables: [table] };
    } finally {
      globalThis.fetch = realFetch;
      intercepted.close();
    }
  },
};
