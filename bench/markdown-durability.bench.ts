import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runConcurrencyHarness, runCrashHarness } from '../adapters/markdown/src/testing/markdown-durability-harness';
import { formatNumber, type Benchmark } from './bench-harness';

const kills = Number(process.env.MEMPLANE_DURABILITY_KILLS ?? 100);
const seed = 15;

/** A small seeded generator (mulberry32), so a run's kill moments can be replayed. */
function seededRandom(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export const markdownDurabilityBenchmark: Benchmark = {
  name: 'markdown-durability',
  description: `@memplane/markdown under crashes and concurrency: ${kills} SIGKILLs of a writer at random moments of multi-file batches, then processes that open and write while another rebuilds a 30k-record index; counts of acknowledged writes lost and batches torn.`,
  async run() {
    const work = mkdtempSync(join(tmpdir(), 'memplane-markdown-durability-'));
    try {
      let started = performance.now();
      const crash = await runCrashHarness(join(work, 'crash'), { kills, maxDelayMs: 40, random: seededRandom(seed) });
      const crashSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const concurrency = await runConcurrencyHarness(join(work, 'concurrency'), { records: 30_000, writers: 4, batches: 50, lockTimeoutMs: 100 });
      const concurrencySeconds = (performance.now() - started) / 1000;
      return {
        figures: { crash, crashSeconds, concurrency, concurrencySeconds, seed, loadAverage: loadavg() },
        tables: [
          {
            title: 'Crash harness: SIGKILL inside multi-file batches, then reopen',
            columns: ['kills', 'kills that hit a write', 'acknowledged batches', 'acknowledged records', 'lost', 'torn batches', 'unreadable files', 'index disagreeing', 'seconds'],
            rows: [[String(crash.kills), String(crash.killsInsideWrite), String(crash.acknowledgedBatches), String(crash.acknowledgedRecords), String(crash.lost), String(crash.torn), String(crash.unreadable), String(crash.disagreeing), formatNumber(crashSeconds, 1)]],
            notes: [
              'One writer process writes batches of 10 records plus a merge into its counter record, with sectionsPerFile 4, so every batch rewrites one file and appends to two or three. It is killed with SIGKILL a random 0 to 40 ms after its first, second or third acknowledgement (seeded), and the parent reopens the root (which finishes a decided batch from its journal) before the next writer starts.',
              'Lost: acknowledged records missing from the markdown or the index. Torn: batches partly visible, or whose counter merge disagrees with the batches visible. "Kills that hit a write": a journal or staged temporary files were left behind.',
            ],
          },
          {
            title: 'Concurrency harness: openers and writers during a 30k-record rebuild',
            columns: ['seeded records', 'writer processes', 'busy errors retried', 'raw busy errors', 'acknowledged records', 'lost', 'torn batches', 'unreadable files', 'index disagreeing', 'seconds'],
            rows: [[String(concurrency.seededRecords), String(concurrency.writers), String(concurrency.busyRetries), String(concurrency.untypedErrors), String(concurrency.acknowledgedRecords), String(concurrency.lost), String(concurrency.torn), String(concurrency.unreadable), String(concurrency.disagreeing), formatNumber(concurrencySeconds, 1)]],
            notes: [
              '30k records are written as markdown with no index; process a opens the root (rebuilding the whole index under the write lock), and as it starts, the other processes open the same root with lockTimeoutMs 100, retry the typed retryable busy error, and write 50 batches each to the same scope.',
              `Load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} at the end of the run, on a machine shared with other work.`,
            ],
          },
        ],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
