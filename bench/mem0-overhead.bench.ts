import { callWithRetry } from '@memplane/core';
import { createMem0Adapter } from '@memplane/mem0';
import { createLazyMem0Client, sendWithSignal } from '../adapters/mem0/src/mem0-client';
import { createMem0Fake } from '../adapters/mem0/src/testing/mem0-fake-server';
import type { Benchmark, BenchTable } from './bench-harness';
import { sharedCategories, type CodeCategory } from './cpu-profile-breakdown';
import { transportTables } from './hosted-adapter-tables';
import { serveProviderFake, type FakeTransport } from './provider-fake-transport';

const options = { rounds: 62, callsPerRound: 40, warmupCalls: 60 };
const seededRecords = 120;
const transports: FakeTransport[] = ['loopback HTTP', 'replayed responses', 'msw interception'];
const categories: CodeCategory[] = [
  { name: '@memplane/mem0', url: /\/adapters\/mem0\/dist\// },
  { name: 'the SDK (mem0ai)', url: /\/node_modules\/mem0ai\// },
  ...sharedCategories,
];
const profiledCalls = 400;

/**
 * What `@memplane/mem0` adds over calling mem0ai's `MemoryClient` directly, on the same
 * fake of the mem0 platform, served over loopback HTTP and through msw. Both variants send
 * the same request: the company's `app_id`, the agent's scope metadata and the page size.
 */
export const mem0OverheadBenchmark: Benchmark = {
  name: 'mem0-overhead',
  description:
    'What `@memplane/mem0` adds per query and list over calling mem0ai `MemoryClient` directly, on the same local fake of the mem0 platform, in paired rounds in one process.',
  async run() {
    process.env.MEM0_TELEMETRY = 'false';
    const { MemoryClient } = await import('mem0ai');
    const figures: Record<string, unknown> = { seededRecords, ...options };
    const tables: BenchTable[] = [];
    for (const transport of transports) {
      const fake = createMem0Fake({ host: 'https://api.mem0.bench' });
      const served = await serveProviderFake(transport, fake.handlers, fake.host);
      try {
        const scope = { companyId: 'bench-company', agentId: 'bench-agent' };
        const adapter = createMem0Adapter({ apiKey: fake.apiKey, baseURL: served.url });
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
        const client = new MemoryClient({ apiKey: fake.apiKey, host: served.url });
        const filters = { AND: [{ app_id: scope.companyId }, { metadata: { memplane_agent: scope.agentId } }] };
        const query = 'when is the deploy window';
        const search = () => client.search(query, { filters, topK: 10 });
        const getAll = () => client.getAll({ filters, page: 1, pageSize: 50 });
        const operations = {
          'query (topK 10)': { direct: search, adapter: () => adapter.query({ bindingKey: 'bench', scope, query, topK: 10 }) },
          'list (first page, limit 50)': { direct: getAll, adapter: () => adapter.list({ bindingKey: 'bench', scope, limit: 50 }) },
        };
        // The adapter's own client class, which takes the attempt's signal to the request.
        const abortable = await createLazyMem0Client({ apiKey: fake.apiKey, host: served.url })();
        const guarded = (send: (sdk: typeof abortable) => Promise<unknown>) => () =>
          callWithRetry((signal) => sendWithSignal(abortable, signal, send), { operation: 'mem0 bench', timeoutMs: 30_000 });
        const guardedOperations = {
          'query (topK 10)': { direct: search, adapter: guarded((sdk) => sdk.search(query, { filters, topK: 10 })) },
          'list (first page, limit 50)': { direct: getAll, adapter: guarded((sdk) => sdk.getAll({ filters, page: 1, pageSize: 50 })) },
        };
        tables.push(
          ...(await transportTables({
            subject: 'mem0 fake',
            detail: `${seededRecords} records in scope`,
            transport,
            operations,
            options,
            notes: [
              'Both variants call the same stateful fake of the mem0 platform (`adapters/mem0/src/mem0-fake-server.ts`) with the same request: the direct variant is a plain mem0ai `MemoryClient` sending the filters and page size the adapter sends.',
              'The adapter adds request and result validation (core `defineMemoryAdapter`), its own check of the response and of every record\'s scope, snippet mapping, an abortable attempt under core `callWithRetry` (an AbortController and a timer, and the signal on the request: the SDK itself has no timeout), usage and, for list, the signed keyset cursor.',
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
