import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureDefaultMarkdownBinding, openDataFolderService } from '@memplane/host';
import { median, percentile } from './bench-harness';
import { startBenchServer } from './server-process-client';

/** Clients calling at once, each waiting for its answer before the next call. */
export const loopbackConcurrency = 16;
const callsPerClient = 25;
const rounds = 6;
/** Records in the agent's memory (markdown, the embedded default) before the calls. */
export const loopbackRecords = 1_000;

const topics = ['deploy', 'billing', 'staging', 'oncall', 'release', 'database', 'backup', 'review'];
const records = Array.from({ length: loopbackRecords }, (_, index) => ({
  text: `Note ${index}: the ${topics[index % topics.length]} process changed in week ${index % 52}.`,
}));

/** The calls measured, with the body each sends. */
export const loopbackWorkloads = {
  query: { path: 'query', body: { query: 'deploy process', topK: 10 } },
  list: { path: 'list', body: { limit: 20 } },
} as const;

type Workload = keyof typeof loopbackWorkloads;

/** Figures of one workload and variant, over every measured round. */
export interface LoopbackFigures {
  callsPerSecond: number;
  roundCallsPerSecond: number[];
  p50Ms: number;
  p99Ms: number;
  serverP50Ms?: number;
  serverP99Ms?: number;
}

async function round(call: () => Promise<void>, latencies: number[]): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: loopbackConcurrency }, async () => {
      for (let index = 0; index < callsPerClient; index += 1) {
        const callStarted = performance.now();
        await call();
        latencies.push(performance.now() - callStarted);
      }
    }),
  );
  return (loopbackConcurrency * callsPerClient) / ((performance.now() - started) / 1000);
}

/**
 * Query and list through `memplane serve` over loopback (its own process, the embedded default:
 * SQLite service store and markdown memory in a data folder) and through the service in this
 * process on the same setup, 16 callers at once, rounds interleaved.
 */
export async function measureLoopback(): Promise<Record<string, LoopbackFigures>> {
  const httpDirectory = mkdtempSync(join(tmpdir(), 'memplane-bench-server-http-'));
  const localDirectory = mkdtempSync(join(tmpdir(), 'memplane-bench-server-local-'));
  const server = await startBenchServer({ dataDirectory: httpDirectory });
  // The host's providers, as memplane serve offers them, so both sides run the same markdown binding.
  const local = await openDataFolderService({ dataDirectory: localDirectory });
  try {
    const base = `${server.url}/v1/companies/acme/memory`;
    const post = async (path: string, body: unknown): Promise<void> => {
      const response = await fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.agentToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 300)}`);
    };
    // The same company, binding and records on both sides; the server makes its default binding at the first call.
    const runtime = local.runtime({ actor: { kind: 'agent', companyId: 'acme', agentId: 'planner' }, companyId: 'acme' });
    await ensureDefaultMarkdownBinding(local, 'bench', 'acme');
    for (let start = 0; start < records.length; start += 100) {
      await post('records', { records: records.slice(start, start + 100) });
      await runtime.upsertRecords({ records: records.slice(start, start + 100) });
    }
    const variants = (workload: Workload): Record<string, () => Promise<void>> => {
      const { path, body } = loopbackWorkloads[workload];
      return {
        [`${workload}, HTTP over loopback`]: () => post(path, body),
        [`${workload}, in process`]: async () => {
          if (workload === 'query') await runtime.query(loopbackWorkloads.query.body);
          else await runtime.list(loopbackWorkloads.list.body);
        },
      };
    };
    const figures: Record<string, LoopbackFigures> = {};
    for (const workload of Object.keys(loopbackWorkloads) as Workload[]) {
      const calls = variants(workload);
      const names = Object.keys(calls);
      const rates: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
      const latencies: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
      const serverTimes: number[] = [];
      // One uncounted round each warms the JIT, statement caches and connections.
      for (const name of names) await round(calls[name]!, []);
      await server.timings();
      for (let index = 0; index < rounds; index += 1) {
        for (const name of index % 2 === 0 ? names : [...names].reverse()) {
          rates[name]!.push(await round(calls[name]!, latencies[name]!));
          if (name.includes('HTTP')) serverTimes.push(...(await server.timings()).map((timing) => timing.ms));
        }
      }
      for (const name of names) {
        figures[name] = {
          callsPerSecond: median(rates[name]!),
          roundCallsPerSecond: rates[name]!,
          p50Ms: percentile(latencies[name]!, 50),
          p99Ms: percentile(latencies[name]!, 99),
          ...(name.includes('HTTP') ? { serverP50Ms: percentile(serverTimes, 50), serverP99Ms: percentile(serverTimes, 99) } : {}),
        };
      }
    }
    return figures;
  } finally {
    await server.close();
    await local.close();
    rmSync(httpDirectory, { recursive: true, force: true });
    rmSync(localDirectory, { recursive: true, force: true });
  }
}
