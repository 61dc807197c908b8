import { defineMemoryAdapter } from '@memplane/core';
import { createSupermemoryAdapter, toSupermemoryContainerTag } from '@memplane/supermemory';
import { setupServer } from 'msw/node';
import { loadavg } from 'node:os';
import Supermemory from 'supermemory';
import { createSupermemoryFake } from '../adapters/supermemory/src/supermemory-fake-api';
import { compareVariants, formatNumber, median, type Benchmark } from './bench-harness';

/**
 * CPU time per call (user + system, the whole process: SDK, msw, the fake and the adapter),
 * interleaved round by round like `compareVariants`. On a shared machine wall-clock time also
 * counts the time other processes hold the cores; CPU time counts only the work done here.
 */
async function compareCpuTime(
  variants: Record<string, () => Promise<unknown>>,
  options: { rounds: number; callsPerRound: number },
): Promise<Record<string, number>> {
  const perRound: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    const names = round % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
    for (const name of names) {
      const before = process.cpuUsage();
      for (let call = 0; call < options.callsPerRound; call += 1) await variants[name]!();
      const used = process.cpuUsage(before);
      perRound[name]!.push((used.user + used.system) / options.callsPerRound);
    }
  }
  return Object.fromEntries(Object.entries(perRound).map(([name, values]) => [name, median(values)]));
}

const baseURL = 'https://api.supermemory.ai';
const apiKey = 'sm_bench_key';
const scope = { companyId: 'bench-company' };
const bindingKey = 'bench';

export const supermemoryOverheadBenchmark: Benchmark = {
  name: 'supermemory-overhead',
  description:
    'What @memplane/supermemory adds over calling the supermemory SDK directly, on the same local msw fake in the same process: query (10 hits) and list (50 entries).',
  async run() {
    const fake = createSupermemoryFake({ baseURL });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      // Both sides are built after msw listens, with SDK retries off.
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
      const operations = {
        'query (10 hits)': {
          'SDK directly': () => client.search({ q: 'deploy window', containerTag, searchMode: 'memories', limit: 10, filters }),
          'through the adapter': () => adapter.query({ bindingKey, scope, query: 'deploy window', topK: 10 }),
        },
        'list (50 entries)': {
          'SDK directly': () =>
            client.post('/v4/memories/list', {
              body: { containerTags: [containerTag], page: 1, limit: 50, sort: 'createdAt', order: 'asc', filters },
            }),
          'through the adapter': () => adapter.list({ bindingKey, scope, limit: 50 }),
        },
      };
      // What core `defineMemoryAdapter` alone costs on the same results (no HTTP): a stub
      // implementation returns the adapter's own query and list results.
      const { usage: _queryUsage, warnings: _queryWarnings, ...bundle } = await adapter.query({ bindingKey, scope, query: 'deploy window', topK: 10 });
      const { usage: _listUsage, warnings: _listWarnings, nextCursor: _cursor, ...page } = await adapter.list({ bindingKey, scope, limit: 50 });
      const coreOnly = defineMemoryAdapter({
        key: 'supermemory',
        capabilities: {},
        capture: async () => ({}),
        upsertRecords: async () => ({}),
        query: async () => structuredClone(bundle),
        list: async () => structuredClone(page),
        get: async () => null,
        forget: async () => ({}),
      });
      const coreVariants: Record<string, () => Promise<unknown>> = {
        'query (10 hits)': () => coreOnly.query({ bindingKey, scope, query: 'deploy window', topK: 10 }),
        'list (50 entries)': () => coreOnly.list({ bindingKey, scope, limit: 50 }),
      };
      const rows: string[][] = [];
      const figures: Record<string, unknown> = {};
      for (const [operation, variants] of Object.entries(operations)) {
        const timings = await compareVariants(variants, { rounds: 15, callsPerRound: 100, warmupCalls: 200 });
        const cpu = await compareCpuTime(variants, { rounds: 15, callsPerRound: 100 });
        const direct = timings['SDK directly']!.medianMicroseconds;
        const wrapped = timings['through the adapter']!.medianMicroseconds;
        const stubOnly = structuredClone(operation.startsWith('query') ? bundle : page);
        const coreCpu =
          (await compareCpuTime({ core: coreVariants[operation]!, clone: async () => structuredClone(stubOnly) }, { rounds: 15, callsPerRound: 200 }));
        const coreValidation = coreCpu.core! - coreCpu.clone!;
        const directCpu = cpu['SDK directly']!;
        const wrappedCpu = cpu['through the adapter']!;
        const percent = (value: number, base: number) => `${formatNumber(((value - base) / base) * 100, 1)} %`;
        figures[operation] = {
          wall: { directMicroseconds: direct, adapterMicroseconds: wrapped, overheadPercent: ((wrapped - direct) / direct) * 100 },
          cpu: { directMicroseconds: directCpu, adapterMicroseconds: wrappedCpu, overheadPercent: ((wrappedCpu - directCpu) / directCpu) * 100 },
          coreValidationCpuMicroseconds: coreValidation,
          loadAverage: loadavg()[0],
        };
        rows.push([
          operation,
          formatNumber(direct, 0),
          formatNumber(wrapped, 0),
          percent(wrapped, direct),
          formatNumber(directCpu, 0),
          formatNumber(wrappedCpu, 0),
          percent(wrappedCpu, directCpu),
          formatNumber(coreValidation, 0),
        ]);
      }
      return {
        figures,
        tables: [
          {
            title: 'Adapter overhead per call (µs, median of 15 rounds × 100 calls, interleaved)',
            columns: ['operation', 'SDK directly (wall)', 'adapter (wall)', 'overhead (wall)', 'SDK directly (CPU)', 'adapter (CPU)', 'overhead (CPU)', 'of which core validation (CPU)'],
            rows,
            notes: [
              'Both variants call the same stateful msw fake of the Supermemory API (60 memory entries in one container) with identical request bodies; the target is 5 % or less.',
              `Load average while it ran: ${loadavg().map((value) => formatNumber(value, 1)).join(', ')} (2 cores). Under load the wall-clock columns mostly measure the other processes; the CPU columns do not.`,
              'The last column is what core `defineMemoryAdapter` (request and result validation, scope re-check, usage) costs on the same results without any HTTP: the part of the overhead every adapter pays.',
              'The adapter adds: request validation (core), the container-tag hash, the retry/timeout wrapper, zod validation of the response, metadata decoding, the per-record scope check, result validation (core) and, for list, signing the cursor.',
            ],
          },
        ],
      };
    } finally {
      server.close();
    }
  },
};
