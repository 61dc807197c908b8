import { createMem0Adapter } from '@memplane/mem0';
import { setupServer } from 'msw/node';
import { createMem0Fake } from '../adapters/mem0/src/mem0-fake-server';
import { compareVariants, formatNumber, median, type Benchmark, type BenchTable } from './bench-harness';

const rounds = 25;
const callsPerRound = 40;
const warmupCalls = 60;
const seededRecords = 120;
const direct = 'SDK called directly';
const adapted = 'through the adapter';

type Operations = Record<string, Record<string, () => Promise<unknown>>>;

/**
 * CPU time per call of each variant (user + system, µs), interleaved round by round like
 * `compareVariants`. On a shared machine wall time also counts other processes; CPU time
 * counts only the work this process did.
 */
async function compareCpu(variants: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const names = Object.keys(variants);
  const perRound: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const started = process.cpuUsage();
      for (let call = 0; call < callsPerRound; call += 1) await variants[name]!();
      const used = process.cpuUsage(started);
      perRound[name]!.push((used.user + used.system) / callsPerRound);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(perRound[name]!)]));
}

const percent = (value: number, base: number) => ((value - base) / base) * 100;

async function measure(operations: Operations, figures: Record<string, unknown>, label: string): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [operation, variants] of Object.entries(operations)) {
    const wall = await compareVariants(variants, { rounds, callsPerRound, warmupCalls });
    const cpu = await compareCpu(variants);
    const plain = { wall: wall[direct]!.medianMicroseconds, cpu: cpu[direct]! };
    const wrapped = { wall: wall[adapted]!.medianMicroseconds, cpu: cpu[adapted]! };
    figures[`${label}: ${operation}`] = { direct: plain, adapter: wrapped, wallOverheadPercent: percent(wrapped.wall, plain.wall), cpuOverheadPercent: percent(wrapped.cpu, plain.cpu) };
    rows.push([
      operation,
      formatNumber(plain.wall, 0),
      formatNumber(wrapped.wall, 0),
      `${formatNumber(wrapped.wall - plain.wall, 0)} µs (${formatNumber(percent(wrapped.wall, plain.wall), 1)} %)`,
      formatNumber(plain.cpu, 0),
      formatNumber(wrapped.cpu, 0),
      `${formatNumber(wrapped.cpu - plain.cpu, 0)} µs (${formatNumber(percent(wrapped.cpu, plain.cpu), 1)} %)`,
    ]);
  }
  return rows;
}

const columns = ['operation', 'wall: SDK directly', 'wall: adapter', 'wall overhead', 'CPU: SDK directly', 'CPU: adapter', 'CPU overhead'];

/**
 * What `@memplane/mem0` adds over calling mem0ai's `MemoryClient` directly, on the same
 * msw fake of the mem0 platform in the same process. Both variants send the same filters
 * (the company's `app_id` and the agent's scope metadata). A second table replays the
 * fake's recorded answers from memory, without msw, to show the adapter's own cost.
 */
export const mem0OverheadBenchmark: Benchmark = {
  name: 'mem0-overhead',
  description:
    'What `@memplane/mem0` adds per query and list over calling mem0ai `MemoryClient` directly, on the same local msw fake of the mem0 platform, interleaved in one process.',
  async run() {
    process.env.MEM0_TELEMETRY = 'false';
    const fake = createMem0Fake({ host: 'https://api.mem0.bench' });
    const server = setupServer(...fake.handlers);
    const realFetch = globalThis.fetch;
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const scope = { companyId: 'bench-company', agentId: 'bench-agent' };
      const adapter = createMem0Adapter({ apiKey: fake.apiKey, host: fake.host });
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
      const { MemoryClient } = await import('mem0ai');
      const client = new MemoryClient({ apiKey: fake.apiKey, host: fake.host });
      const filters = { AND: [{ app_id: scope.companyId }, { metadata: { memplane_agent: scope.agentId } }] };
      const query = 'when is the deploy window';
      const operations: Operations = {
        'query (topK 10)': {
          [direct]: () => client.search(query, { filters, topK: 10 }),
          [adapted]: () => adapter.query({ bindingKey: 'bench', scope, query, topK: 10 }),
        },
        'list (first page, limit 50)': {
          [direct]: () => client.getAll({ filters, page: 1, pageSize: 50 }),
          [adapted]: () => adapter.list({ bindingKey: 'bench', scope, limit: 50 }),
        },
      };
      const figures: Record<string, unknown> = { seededRecords, rounds, callsPerRound, warmupCalls };
      const overFake = await measure(operations, figures, 'msw fake');

      // The same calls answered from memory: the fake's recorded bodies, no msw, no HTTP.
      const recorded = new Map<string, string>();
      server.events.on('response:mocked', async ({ request, response }) => {
        recorded.set(`${new URL(request.url).pathname}?${new URL(request.url).searchParams.get('page_size') ?? ''}`, await response.clone().text());
      });
      for (const variants of Object.values(operations)) for (const run of Object.values(variants)) await run();
      server.close();
      globalThis.fetch = (async (input: string | URL | Request) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        return new Response(recorded.get(`${url.pathname}?${url.searchParams.get('page_size') ?? ''}`) ?? '{}', { status: 200, headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
      const replayed = await measure(operations, figures, 'replayed');
      return {
        figures,
        tables: [
          {
            title: `Over the msw fake (µs per call, median of ${rounds} rounds × ${callsPerRound} calls, ${seededRecords} records in scope)`,
            columns,
            rows: overFake,
            notes: [
              'Both variants call the same msw fake of the mem0 platform (`adapters/mem0/src/mem0-fake-server.ts`) in the same process, interleaved round by round; the target is 5 % or less.',
              'The direct variant is a plain mem0ai `MemoryClient` sending the same filters the adapter sends. The adapter asks for one record more per list page (51) to know whether a next page exists.',
              'Wall time includes the fake answering in the same process and whatever else the shared machine runs; CPU time (user + system of this process) is the steadier measure.',
            ],
          },
          {
            title: 'Adapter cost alone: the same calls answered from memory, no msw (µs per call)',
            columns,
            rows: replayed,
            notes: [
              "The fake's answers are recorded once and replayed by a stub `fetch`, so both columns are client-side work only: the SDK's JSON parsing and key camel-casing, plus, for the adapter, request and result validation (its own and core `defineMemoryAdapter`'s), its scope check of every record, snippet mapping, the abortable attempt under core `callWithRetry` (an AbortController and a timer per attempt), usage and, for list, the signed keyset cursor.",
            ],
          },
        ] satisfies BenchTable[],
      };
    } finally {
      globalThis.fetch = realFetch;
      server.close();
    }
  },
};
