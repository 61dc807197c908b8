import {
  defineMemoryAdapter,
  type MemoryAdapterImplementation,
  type MemoryScope,
  type MemorySnippet,
} from '@memplane/core';
import { compareVariants, formatNumber, type Benchmark } from './bench-harness';

const scope: MemoryScope = { companyId: 'company-1', agentId: 'agent-1', projectId: 'project-1' };
const source = { kind: 'issue_comment' as const, companyId: 'company-1', issueId: 'issue-1', commentId: 'comment-1' };

function snippet(index: number): MemorySnippet {
  return {
    handle: { providerKey: 'bench', providerRecordId: `record-${index}` },
    text: `Record number ${index} says the deploy window is Tuesday at 14:00 UTC.`,
    score: 1 / (index + 1),
    source,
    metadata: { kind: 'fact', tags: ['deploy', 'schedule'], confidence: 0.9 },
    scope,
    createdAt: '2026-11-01T10:00:00.000Z',
  };
}

const querySnippets = Array.from({ length: 10 }, (_, index) => snippet(index));
const listItems = Array.from({ length: 50 }, (_, index) => snippet(index));
const writeRecords = Array.from({ length: 10 }, (_, index) => ({
  text: `Curated fact ${index}: the staging database is rebuilt nightly.`,
  metadata: { kind: 'fact', index },
}));

// The implementation returns prepared results so the measurement isolates what the
// wrapper adds: request validation, result validation, scope checks and usage filling.
const implementation: MemoryAdapterImplementation = {
  key: 'bench',
  capabilities: { metadataFilter: true },
  capture: async () => ({ records: [] }),
  upsertRecords: async (request) => ({
    records: request.records.map((_, index) => ({ providerKey: 'bench', providerRecordId: `record-${index}` })),
    usage: [{ provider: 'bench' }],
  }),
  query: async () => ({ snippets: querySnippets, usage: [{ provider: 'bench' }] }),
  list: async () => ({ items: listItems, nextCursor: 'next', usage: [{ provider: 'bench' }] }),
  get: async () => querySnippets[0] ?? null,
  forget: async () => ({}),
};

export const coreValidationBenchmark: Benchmark = {
  name: 'core-validation',
  description:
    'What `defineMemoryAdapter` adds per call (zod validation of request and result, scope checks, usage filling) over calling the same implementation directly.',
  async run() {
    const adapter = defineMemoryAdapter(implementation);
    const queryRequest = { bindingKey: 'default', scope, query: 'when is the deploy window', topK: 10 };
    const listRequest = { bindingKey: 'default', scope, limit: 50 };
    const writeRequest = { bindingKey: 'default', scope, source, records: writeRecords };
    const operations = {
      'query (10 snippets)': {
        direct: () => implementation.query(queryRequest),
        wrapped: () => adapter.query(queryRequest),
      },
      'list (50 items)': { direct: () => implementation.list(listRequest), wrapped: () => adapter.list(listRequest) },
      'upsertRecords (10 records)': {
        direct: () => implementation.upsertRecords(writeRequest),
        wrapped: () => adapter.upsertRecords(writeRequest),
      },
    };
    const rows: string[][] = [];
    const figures: Record<string, unknown> = {};
    for (const [operation, variants] of Object.entries(operations)) {
      const timings = await compareVariants(variants, { rounds: 15, callsPerRound: 2000, warmupCalls: 2000 });
      const direct = timings.direct!;
      const wrapped = timings.wrapped!;
      figures[operation] = {
        directMicroseconds: direct.medianMicroseconds,
        wrappedMicroseconds: wrapped.medianMicroseconds,
        directCpuMicroseconds: direct.medianCpuMicroseconds,
        wrappedCpuMicroseconds: wrapped.medianCpuMicroseconds,
      };
      rows.push([
        operation,
        formatNumber(direct.medianMicroseconds, 2),
        formatNumber(wrapped.medianMicroseconds, 2),
        formatNumber(wrapped.medianMicroseconds - direct.medianMicroseconds, 2),
        formatNumber(wrapped.medianCpuMicroseconds - direct.medianCpuMicroseconds, 2),
      ]);
    }
    return {
      figures,
      tables: [
        {
          title: 'Validation overhead per call (µs, median of 15 rounds × 2000 calls)',
          columns: ['operation', 'direct (wall)', 'through defineMemoryAdapter (wall)', 'overhead (wall)', 'overhead (CPU)'],
          rows,
          notes: ['The implementation returns prepared results, so the overhead column is the wrapper alone.'],
        },
      ],
    };
  },
};
