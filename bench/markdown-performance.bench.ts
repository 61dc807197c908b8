import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createMarkdownAdapter } from '@memplane/markdown';
import { formatNumber, type Benchmark } from './bench-harness';
import { buildMiniSearch, buildOrama, markdownQuery, miniSearchQuery, oramaQuery, saveIndexes, timeQueries, type QueryTimings } from './markdown-performance-engines';
import { syntheticCorpus, syntheticQueries, type SyntheticRecord } from './markdown-synthetic-corpus';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const defaultRecords = 100_000;
/** The corpus size: `npm run bench markdown-performance -- --records <n>` sets it; read when the run starts. */
const recordsOf = () => Number(process.env.MEMPLANE_BENCH_RECORDS ?? defaultRecords);
/** Above this size MiniSearch and Orama (in memory, about 0.6 and 1 GB at 100k) and the variant without windows are left out. */
const largestComparedRun = 200_000;
const companies = 10;

interface ChildFigures extends QueryTimings {
  openMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

function inChild(engine: string, path: string, queriesFile: string): ChildFigures {
  const output = execFileSync(process.execPath, ['--import', 'tsx', join(benchDirectory, 'markdown-performance-child.ts'), engine, path, queriesFile], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as ChildFigures;
}

async function upsertAll(root: string, records: SyntheticRecord[], neighbourWindows = true): Promise<{ seconds: number; cpuSeconds: number }> {
  const adapter = createMarkdownAdapter({ root, neighbourWindows });
  const byScope = new Map<string, SyntheticRecord[]>();
  for (const record of records) {
    const key = `${record.companyId}\u0000${record.agentId}`;
    const group = byScope.get(key);
    // Pushed, not spread: spreading copies the group on every record, quadratic at 1M records.
    if (group === undefined) byScope.set(key, [record]);
    else group.push(record);
  }
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  for (const group of byScope.values()) {
    const first = group[0] as SyntheticRecord;
    for (let start = 0; start < group.length; start += 1000) {
      await adapter.upsertRecords({
        bindingKey: 'bench',
        scope: { companyId: first.companyId, agentId: first.agentId },
        records: group.slice(start, start + 1000).map((record) => ({ text: record.text, metadata: { n: record.id } })),
      });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  adapter.close();
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

export const markdownPerformanceBenchmark: Benchmark = {
  name: 'markdown-performance',
  get resultName() {
    return recordsOf() === defaultRecords ? undefined : `markdown-performance-${recordsOf() % 1000 === 0 ? `${recordsOf() / 1000}k` : recordsOf()}`;
  },
  get description() {
    const compared = recordsOf() <= largestComparedRun;
    return `@memplane/markdown at ${recordsOf().toLocaleString('en')} records in ${companies} companies${compared ? ' beside MiniSearch and Orama doing the same work in the same run' : ''}: batched writes, lexical queries scoped to one company, opening a saved index in a fresh process, rebuilding, RSS.`;
  },
  async run() {
    const recordCount = recordsOf();
    const compared = recordCount <= largestComparedRun;
    const { records, words } = syntheticCorpus(recordCount, companies);
    const queries = syntheticQueries(words, 200);
    const work = mkdtempSync(join(tmpdir(), 'memplane-markdown-bench-'));
    const queriesFile = join(work, 'queries.json');
    writeFileSync(queriesFile, JSON.stringify(queries));
    try {
      const root = join(work, 'root');
      const upsert = await upsertAll(root, records);
      const upsertSeconds = upsert.seconds;
      const markdown = markdownQuery(root);
      const markdownQueries = await timeQueries(queries, markdown.run);
      const rebuildStarted = performance.now();
      const rebuildCpu = process.cpuUsage();
      markdown.adapter.rebuildIndex();
      const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
      const rebuildCpuUsage = process.cpuUsage(rebuildCpu);
      const rebuildCpuSeconds = (rebuildCpuUsage.user + rebuildCpuUsage.system) / 1e6;
      markdown.adapter.close();

      // The markdown child runs first, while this process holds no competitor in memory.
      const markdownChild = inChild('markdown', root, queriesFile);
      if (!compared) return largeRun(recordCount, { upsert, rebuildSeconds, rebuildCpuSeconds, markdownQueries, markdownChild });

      const plainRoot = join(work, 'plain-root');
      const plainUpsert = await upsertAll(plainRoot, records, false);
      const plain = markdownQuery(plainRoot, false);
      const plainQueries = await timeQueries(queries, plain.run);
      const plainRebuildStarted = performance.now();
      plain.adapter.rebuildIndex();
      const plainRebuildSeconds = (performance.now() - plainRebuildStarted) / 1000;
      plain.adapter.close();

      let started = performance.now();
      const miniSearch = buildMiniSearch(records);
      const miniSearchBuildSeconds = (performance.now() - started) / 1000;
      const miniSearchQueries = await timeQueries(queries, miniSearchQuery(miniSearch));
      started = performance.now();
      const orama = await buildOrama(records);
      const oramaBuildSeconds = (performance.now() - started) / 1000;
      const oramaQueries = await timeQueries(queries, oramaQuery(orama));
      const saved = saveIndexes(join(work, 'saved'), miniSearch, orama);

      const miniSearchChild = inChild('minisearch', join(work, 'saved', 'minisearch.json'), queriesFile);
      const oramaChild = inChild('orama', join(work, 'saved', 'orama.json'), queriesFile);

      const rate = (seconds: number) => formatNumber(recordCount / seconds / 1000, 1);
      const figures = {
        records: recordCount,
        companies,
        markdown: { upsertSeconds, upsertCpuSeconds: upsert.cpuSeconds, rebuildSeconds, rebuildCpuSeconds, queries: markdownQueries, child: markdownChild },
        loadAverage: loadavg(),
        markdownWithoutWindows: { upsertSeconds: plainUpsert.seconds, upsertCpuSeconds: plainUpsert.cpuSeconds, rebuildSeconds: plainRebuildSeconds, queries: plainQueries },
        minisearch: { buildSeconds: miniSearchBuildSeconds, saveMs: saved.miniSearchMs, queries: miniSearchQueries, child: miniSearchChild },
        orama: { buildSeconds: oramaBuildSeconds, saveMs: saved.oramaMs, queries: oramaQueries, child: oramaChild },
      };
      return {
        figures,
        tables: [
          {
            title: `${recordCount.toLocaleString('en')} records, ${companies} companies: @memplane/markdown beside MiniSearch 7 and Orama 3`,
            columns: ['measure', 'goal', '@memplane/markdown', 'markdown, neighbourWindows off', 'MiniSearch', 'Orama'],
            rows: [
              ['write throughput, batches of 1000 (k records/s)', '≥ 10', `${rate(upsertSeconds)} (${formatNumber((upsert.cpuSeconds * 1e6) / recordCount, 0)} µs CPU per record)`, `${rate(plainUpsert.seconds)} (${formatNumber((plainUpsert.cpuSeconds * 1e6) / recordCount, 0)} µs CPU)`, `${rate(miniSearchBuildSeconds)} (in memory, addAll)`, `${rate(oramaBuildSeconds)} (in memory, insertMultiple)`],
              ['lexical query in one company, p50 (ms)', '≤ 2', formatNumber(markdownQueries.p50, 2), formatNumber(plainQueries.p50, 2), formatNumber(miniSearchQueries.p50, 2), formatNumber(oramaQueries.p50, 2)],
              ['lexical query in one company, p95 (ms)', '≤ 5', formatNumber(markdownQueries.p95, 2), formatNumber(plainQueries.p95, 2), formatNumber(miniSearchQueries.p95, 2), formatNumber(oramaQueries.p95, 2)],
              ['open a saved index in a fresh process (ms)', '≤ 100', formatNumber(markdownChild.openMs, 1), '', `${formatNumber(miniSearchChild.openMs, 1)} (loadJSON)`, `${formatNumber(oramaChild.openMs, 1)} (load)`],
              ['full rebuild from the source (s)', '≤ 15', `${formatNumber(rebuildSeconds, 2)} from markdown (${formatNumber(rebuildCpuSeconds, 2)} s CPU)`, formatNumber(plainRebuildSeconds, 2), `${formatNumber(miniSearchBuildSeconds, 2)} (addAll)`, `${formatNumber(oramaBuildSeconds, 2)} (insertMultiple)`],
              ['RSS after open + 210 queries, fresh process (MB)', '≤ 250', formatNumber(markdownChild.rssAfterMb, 0), '', formatNumber(miniSearchChild.rssAfterMb, 0), formatNumber(oramaChild.rssAfterMb, 0)],
              ['query p50 / p95 in the fresh process (ms)', '', `${formatNumber(markdownChild.p50, 2)} / ${formatNumber(markdownChild.p95, 2)}`, '', `${formatNumber(miniSearchChild.p50, 2)} / ${formatNumber(miniSearchChild.p95, 2)}`, `${formatNumber(oramaChild.p50, 2)} / ${formatNumber(oramaChild.p95, 2)}`],
              ['mean hits per query (top 10)', '', formatNumber(markdownQueries.meanHits, 1), formatNumber(plainQueries.meanHits, 1), formatNumber(miniSearchQueries.meanHits, 1), formatNumber(oramaQueries.meanHits, 1)],
            ],
            notes: [
              'Corpus: the research corpus of local-index.md, generated with a fixed seed: 5k pseudo-words, Zipf (s=1), 30 to 60 words per record, 10 agents per company. Queries: 200 of 2 or 3 terms from word ranks ≥ 50, OR-ed, each scoped to one company, after 10 warm-up queries, top 10.',
              '@memplane/markdown writes go through upsertRecords (zod validation, markdown files written atomically with fsync, the FTS5 index in the same transaction); queries go through query() (validation, scope checks, BM25 plus neighbour windows). MiniSearch and Orama index in memory only; persisting them is a separate JSON save (' +
                `${formatNumber(saved.miniSearchMs / 1000, 2)} s and ${formatNumber(saved.oramaMs / 1000, 2)} s here).`,
              'Open and RSS are measured in a fresh node process per engine (after its modules are imported), which then runs the same 210 queries; RSS includes the node runtime and tsx.',
              `One run on a shared 2-core machine (load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} at the end of the run, other work included): read only differences above about 1.5× as meaningful. CPU time is this process's own, which contention inflates less than wall time.`,
            ],
          },
        ],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

interface LargeRunFigures {
  upsert: { seconds: number; cpuSeconds: number };
  rebuildSeconds: number;
  rebuildCpuSeconds: number;
  markdownQueries: QueryTimings;
  markdownChild: ChildFigures;
}

/** The table of a run too large for the in-memory engines: @memplane/markdown alone, against the goals of that size. */
function largeRun(recordCount: number, figures: LargeRunFigures) {
  const { upsert, rebuildSeconds, rebuildCpuSeconds, markdownQueries, markdownChild } = figures;
  return {
    figures: { records: recordCount, companies, markdown: { upsertSeconds: upsert.seconds, upsertCpuSeconds: upsert.cpuSeconds, rebuildSeconds, rebuildCpuSeconds, queries: markdownQueries, child: markdownChild }, loadAverage: loadavg() },
    tables: [
      {
        title: `${recordCount.toLocaleString('en')} records, ${companies} companies: @memplane/markdown alone`,
        columns: ['measure', 'goal at 1M', '@memplane/markdown'],
        rows: [
          ['write throughput, batches of 1000 (k records/s)', '', `${formatNumber(recordCount / upsert.seconds / 1000, 1)} (${formatNumber((upsert.cpuSeconds * 1e6) / recordCount, 0)} µs CPU per record)`],
          ['lexical query in one company, p50 (ms)', '≤ 3', formatNumber(markdownQueries.p50, 2)],
          ['lexical query in one company, p95 (ms)', '', formatNumber(markdownQueries.p95, 2)],
          ['open a saved index in a fresh process (ms)', '', formatNumber(markdownChild.openMs, 1)],
          ['full rebuild from the source (s)', '', `${formatNumber(rebuildSeconds, 2)} (${formatNumber(rebuildCpuSeconds, 2)} s CPU)`],
          ['RSS after open + 210 queries, fresh process (MB)', '≤ 400', formatNumber(markdownChild.rssAfterMb, 0)],
          ['query p50 / p95 in the fresh process (ms)', '', `${formatNumber(markdownChild.p50, 2)} / ${formatNumber(markdownChild.p95, 2)}`],
          ['mean hits per query (top 10)', '', formatNumber(markdownQueries.meanHits, 1)],
        ],
        notes: [
          `Above ${largestComparedRun.toLocaleString('en')} records MiniSearch and Orama (which hold their whole index in memory) and the variant without neighbour windows are left out. Corpus, queries and measures as in the 100k table.`,
          `One run on a shared 2-core machine (load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} at the end of the run, other work included).`,
        ],
      },
    ],
  };
}
