import { performance } from 'node:perf_hooks';
import { runConformance } from '@memplane/conformance/runner';
import * as referenceEntry from '../adapters/memory/conformance-entry';
import { formatNumber, median, type Benchmark } from './bench-harness';

const runs = 7;

export const conformanceSuiteBenchmark: Benchmark = {
  name: 'conformance-suite',
  description: 'Wall time of one whole conformance run (every rule, sequentially) over the in-memory reference adapter.',
  async run() {
    const durations: number[] = [];
    let report: Awaited<ReturnType<typeof runConformance>> | undefined;
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      report = await runConformance({
        name: '@memplane/memory',
        createAdapter: referenceEntry.createAdapter,
        createPeerAdapter: referenceEntry.createPeerAdapter,
        faults: referenceEntry.faults,
      });
      durations.push(performance.now() - started);
    }
    const rules = report?.results.length ?? 0;
    const slowest = [...(report?.results ?? [])].sort((left, right) => right.durationMs - left.durationMs).slice(0, 3);
    return {
      figures: {
        runs,
        rules,
        passed: report?.passed,
        failed: report?.failed,
        skipped: report?.skipped,
        medianMilliseconds: median(durations),
        runMilliseconds: durations,
        slowestRules: slowest.map((result) => ({ id: result.id, durationMs: result.durationMs })),
      },
      tables: [
        {
          title: `Conformance suite over @memplane/memory (median of ${runs} runs)`,
          columns: ['rules', 'passed', 'failed', 'skipped', 'median wall time (ms)', 'per rule (ms)'],
          rows: [
            [
              String(rules),
              String(report?.passed ?? 0),
              String(report?.failed ?? 0),
              String(report?.skipped ?? 0),
              formatNumber(median(durations)),
              formatNumber(median(durations) / Math.max(1, rules), 2),
            ],
          ],
          notes: [
            `Slowest rules in the last run: ${slowest.map((result) => `${result.id} (${formatNumber(result.durationMs)} ms)`).join(', ')}.`,
            'The timeout rules wait for the reference adapter\'s 50 ms timeout, which bounds the total from below.',
          ],
        },
      ],
    };
  },
};
