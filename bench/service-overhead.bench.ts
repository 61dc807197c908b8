import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defineMemoryAdapter, type MemoryAdapter, type MemoryScope, type MemorySnippet } from '@memplane/core';
import { createMemoryAdapter } from '@memplane/memory';
import { createMemoryService, defaultOperationLogBatchSize, type MemoryService } from '@memplane/service';
import { createSqliteMemoryServiceStore } from '@memplane/service/sqlite';
import { formatNumber, median, percentile, type Benchmark, type BenchTable } from './bench-harness';

const scope: MemoryScope = { companyId: 'acme', agentId: 'planner' };
const actor = { kind: 'agent', companyId: 'acme', agentId: 'planner' } as const;
const rounds = 15;
const callsPerRound = 400;
const warmupCalls = 400;

// A provider that answers from prepared results, so the service's own work is all that differs.
function createPreparedAdapter(): MemoryAdapter {
  const snippet = (index: number): MemorySnippet => ({
    handle: { providerKey: 'prepared', providerRecordId: `record-${index}` },
    text: `Record ${index}: the deploy window is Tuesday at 14:00 UTC.`,
    score: 1 / (index + 1),
    scope,
    source: { kind: 'issue_comment', companyId: 'acme', issueId: 'ACME-1', commentId: `comment-${index}` },
    metadata: { kind: 'fact' },
  });
  const snippets = Array.from({ length: 10 }, (_, index) => snippet(index));
  const items = Array.from({ length: 20 }, (_, index) => snippet(index));
  return defineMemoryAdapter({
    key: 'prepared',
    capabilities: { metadataFilter: true },
    capture: async () => ({ records: [] }),
    upsertRecords: async (request) => ({ records: request.records.map((_, index) => ({ providerKey: 'prepared', providerRecordId: `new-${index}` })) }),
    query: async () => ({ snippets }),
    list: async () => ({ items }),
    get: async () => snippets[0] ?? null,
    forget: async () => ({}),
  });
}

async function createReferenceAdapter(): Promise<MemoryAdapter> {
  const adapter = createMemoryAdapter();
  const topics = ['deploy', 'billing', 'staging', 'oncall', 'release', 'database', 'backup', 'review'];
  for (let batch = 0; batch < 4; batch += 1) {
    await adapter.upsertRecords({
      bindingKey: 'default',
      scope,
      records: Array.from({ length: 50 }, (_, index) => ({
        text: `Note ${batch * 50 + index}: the ${topics[index % topics.length]} process changed in week ${index}.`,
      })),
    });
  }
  return adapter;
}

interface ServiceVariant {
  name: string;
  service: MemoryService;
}

async function createServiceVariants(adapter: MemoryAdapter, directory: string): Promise<ServiceVariant[]> {
  const setups = [
    { name: 'service, SQLite :memory:, log batched (default)', filename: ':memory:', batchSize: undefined },
    { name: 'service, SQLite file (WAL), log batched (default)', filename: join(directory, 'batched.db'), batchSize: undefined },
    { name: 'service, SQLite file (WAL), log written per operation', filename: join(directory, 'each.db'), batchSize: 1 },
  ];
  const variants: ServiceVariant[] = [];
  for (const setup of setups) {
    const service = await createMemoryService({
      store: createSqliteMemoryServiceStore({ filename: setup.filename }),
      // The batched variants run with the service's default batch size.
      ...(setup.batchSize === undefined ? {} : { operationLog: { batchSize: setup.batchSize } }),
      providers: [{ providerId: 'bench', description: 'the shared adapter', capabilities: adapter.capabilities, create: () => adapter }],
    });
    const control = service.control({ actor: { kind: 'company', companyId: 'acme' } });
    await control.createBinding({ key: 'default', providerId: 'bench' });
    await control.setTarget({ targetType: 'company' }, 'default');
    variants.push({ name: setup.name, service });
  }
  return variants;
}

type Call = () => Promise<unknown>;

/** Times every call, interleaving variants round by round (alternating order) so noise hits all alike. */
async function sample(variants: Record<string, Call>): Promise<Record<string, { perCall: number[]; roundMeans: number[] }>> {
  const names = Object.keys(variants);
  for (const name of names) for (let call = 0; call < warmupCalls; call += 1) await variants[name]!();
  const samples = Object.fromEntries(names.map((name) => [name, { perCall: [] as number[], roundMeans: [] as number[] }]));
  for (let round = 0; round < rounds; round += 1) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const run = variants[name]!;
      const target = samples[name]!;
      const roundStarted = performance.now();
      for (let call = 0; call < callsPerRound; call += 1) {
        const started = performance.now();
        await run();
        target.perCall.push((performance.now() - started) * 1000);
      }
      target.roundMeans.push(((performance.now() - roundStarted) * 1000) / callsPerRound);
    }
  }
  return samples;
}

function operationsFor(adapter: MemoryAdapter, service: MemoryService | undefined): Record<string, Call> {
  const runtime = service?.runtime({ actor });
  const handle = { providerKey: adapter.key, providerRecordId: adapter.key === 'memory' ? 'mem_000001' : 'record-0' };
  return {
    'query (topK 10)': runtime
      ? () => runtime.query({ query: 'deploy process', topK: 10, scope: { agentId: 'planner' } })
      : () => adapter.query({ bindingKey: 'default', scope, query: 'deploy process', topK: 10 }),
    'list (20 items)': runtime
      ? () => runtime.list({ limit: 20, scope: { agentId: 'planner' } })
      : () => adapter.list({ bindingKey: 'default', scope, limit: 20 }),
    get: runtime ? () => runtime.get({ handle, scope: { agentId: 'planner' } }) : () => adapter.get(handle, scope),
    'upsertRecords (1 record)': runtime
      ? () => runtime.upsertRecords({ scope: { agentId: 'planner' }, records: [{ text: 'Deploys happen on Tuesdays.' }] })
      : () => adapter.upsertRecords({ bindingKey: 'default', scope, records: [{ text: 'Deploys happen on Tuesdays.' }] }),
  };
}

async function measureAdapter(label: string, adapter: MemoryAdapter, directory: string) {
  const variants = await createServiceVariants(adapter, directory);
  const direct = operationsFor(adapter, undefined);
  const through = variants.map((variant) => ({ name: variant.name, operations: operationsFor(adapter, variant.service) }));
  const rows: string[][] = [];
  const figures: Record<string, unknown> = {};
  for (const operation of Object.keys(direct)) {
    const calls: Record<string, Call> = { 'adapter directly': direct[operation]! };
    for (const variant of through) calls[variant.name] = variant.operations[operation]!;
    const samples = await sample(calls);
    const directP50 = percentile(samples['adapter directly']!.perCall, 50);
    const directMean = median(samples['adapter directly']!.roundMeans);
    for (const [name, measured] of Object.entries(samples)) {
      const p50 = percentile(measured.perCall, 50);
      const p99 = percentile(measured.perCall, 99);
      const mean = median(measured.roundMeans);
      const isDirect = name === 'adapter directly';
      rows.push([
        operation,
        name,
        formatNumber(p50),
        formatNumber(p99),
        formatNumber(mean),
        isDirect ? '–' : formatNumber(p50 - directP50),
        isDirect ? '–' : formatNumber(mean - directMean),
      ]);
      figures[`${label} / ${operation} / ${name}`] = { p50, p99, mean, overheadP50: p50 - directP50, overheadMean: mean - directMean };
    }
  }
  for (const variant of variants) await variant.service.close();
  return { rows, figures };
}

export const serviceOverheadBenchmark: Benchmark = {
  name: 'service-overhead',
  description:
    'What @memplane/service adds per operation (validation, company and policy checks, binding resolution on SQLite, result scope checks, the operation-log write) over calling the same adapter directly, interleaved in one process.',
  async run() {
    const root = mkdtempSync(join(tmpdir(), 'memplane-bench-service-'));
    let measurements = 0;
    try {
      const tables: BenchTable[] = [];
      const figures: Record<string, unknown> = {};
      const columns = ['operation', 'variant', 'p50', 'p99', 'mean', 'overhead p50', 'overhead mean'];
      const notes = [
        `Per-call wall time in µs: p50 and p99 over ${rounds} rounds × ${callsPerRound} calls per variant (after ${warmupCalls} warm-up calls), mean = median over rounds of the round mean; variants interleaved round by round.`,
        'Overhead = the variant minus "adapter directly" on the same adapter instance and data. Target: overhead p50 ≤ 50 µs on SQLite.',
        `Batched log: entries are written ${defaultOperationLogBatchSize} at a time (the default \`operationLog.batchSize\`, or at the end of the event-loop turn), so most calls pay no write and every ${defaultOperationLogBatchSize}th pays the batch; the mean column includes that amortised cost. "Per operation" writes one entry in its own transaction before the call returns.`,
      ];
      for (const [label, adapter] of [
        ['prepared-results adapter', createPreparedAdapter()],
        ['@memplane/memory reference adapter, 200 records', await createReferenceAdapter()],
      ] as const) {
        const directory = mkdtempSync(join(root, `adapter-${(measurements += 1)}-`));
        const measured = await measureAdapter(label, adapter, directory);
        Object.assign(figures, measured.figures);
        tables.push({ title: `Service overhead per call, ${label} (µs)`, columns, rows: measured.rows, notes });
      }
      return { tables, figures };
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
