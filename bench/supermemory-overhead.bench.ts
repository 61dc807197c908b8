import { callWithRetry } from '@memplane/core';
import { createSupermemoryAdapter, toSupermemoryContainerTag } from '@memplane/supermemory';
import Supermemory from 'supermemory';
import { createSupermemoryFake } from '../adapters/supermemory/src/testing/supermemory-fake-api';
import type { Benchmark, BenchTable } from './bench-harness';
import { sharedCategories, type CodeCategory } from './cpu-profile-breakdown';
import { transportTables } from './hosted-adapter-tables';
import { serveProviderFake, type FakeTransport } from './provider-fake-transport';

const fakeOrigin = 'https://api.supermemory.ai';
const apiKey = 'sm_bench_key';
const scope = { companyId: 'bench-company' };
const bindingKey = 'bench';
const options = { rounds: 62, callsPerRound: 40, warmupCalls: 200 };
const transports: FakeTransport[] = ['loopback HTTP', 'replayed responses', 'msw interception'];
const categories: CodeCategory[] = [
  { name: '@memplane/supermemory', url: /\/adapters\/supermemory\/dist\// },
  { name: 'the SDK (supermemory)', url: /\/node_modules\/supermemory\// },
  ...sharedCategories,
];
const profiledCalls = 400;

export const supermemoryOverheadBenchmark: Benchmark = {
  name: 'supermemory-overhead',
  description:
    'What @memplane/supermemory adds over calling the supermemory SDK directly, on the same local fake of the Supermemory API, in paired rounds in one process: query (10 hits) and list (50 entries).',
  async run() {
    const figures: Record<string, unknown> = { ...options };
    const tables: BenchTable[] = [];
    for (const transport of transports) {
      const fake = createSupermemoryFake({ baseURL: fakeOrigin });
      const served = await serveProviderFake(transport, fake.handlers, fakeOrigin);
      try {
        // Both sides are built once the fake is served (the SDK captures fetch), with SDK retries off.
        const baseURL = served.url;
        const client = new Supermemory({ apiKey, baseURL, maxRetries: 0, logLevel: 'off' });
        const adapter = createSupermemoryAdapter({ apiKey, baseURL, cursorSecret: 'bench-cursor-secret-0123' });
        await adapter.upsertRecords({
          bindingKey,
          scope,
          source: { kind: 'manual_note', companyId: scope.companyId },
          records: Array.from({ length: 60 }, (_, index) => ({
            text: `Deploy note ${index}: the deploy window is Tuesday at 14:00 UTC.`,
            metadata: { kind: 'fact', index },
          })),
        });
        const containerTag = toSupermemoryContainerTag(scope.companyId);
        // The direct calls send exactly the bodies the adapter sends, so the fake does the same work.
        const filters = { AND: [{ key: 'mp_companyId', value: scope.companyId }] };
        const searchBody = { q: 'deploy window', containerTag, searchMode: 'memories' as const, limit: 10, filters };
        const listBody = { containerTags: [containerTag], page: 1, limit: 50, sort: 'createdAt', order: 'asc', filters };
        const operations = {
          'query (10 hits)': { direct: () => client.search(searchBody), adapter: () => adapter.query({ bindingKey, scope, query: 'deploy window', topK: 10 }) },
          'list (50 entries)': { direct: () => client.post('/v4/memories/list', { body: listBody }), adapter: () => adapter.list({ bindingKey, scope, limit: 50 }) },
        };
        // As the adapter calls: the SDK's own timeout on the request, and core's backstop timer around it.
        const requestOptions = { timeout: 30_000, maxRetries: 0 };
        const guarded = (send: () => PromiseLike<unknown>) => () => callWithRetry(async () => send(), { operation: 'Supermemory bench', timeoutMs: 30_100 });
        const guardedOperations = {
          'query (10 hits)': { direct: operations['query (10 hits)'].direct, adapter: guarded(() => client.search(searchBody, requestOptions)) },
          'list (50 entries)': {
            direct: operations['list (50 entries)'].direct,
            adapter: guarded(() => client.post('/v4/memories/list', { body: listBody, ...requestOptions })),
          },
        };
        tables.push(
          ...(await transportTables({
            subject: 'Supermemory fake',
            transport,
            operations,
            options,
            notes: [
              'Both variants call the same stateful fake of the Supermemory API (60 memory entries in one container) with identical request bodies: the direct variant is a `supermemory` client sending the container tag and metadata filter the adapter sends.',
              'The adapter adds: request validation (core), the container-tag hash, the retry/timeout wrapper, validation of the response, metadata decoding, the per-record scope check, result validation (core) and, for list, signing the cursor.',
            ],
            categories,
            profiledCalls,
            figures,
            guardedOperations,
          })),
        );
      } finally {
        await served.close();
      }
    }
    return { figures, tables };
  },
};
