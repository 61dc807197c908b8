import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Benchmark } from './bench-harness';
import { markdownLocomoBenchmark } from './markdown-locomo.bench';
import { markdownPerformanceBenchmark } from './markdown-performance.bench';

// Runs the @memplane/markdown benchmarks on their own and stores their results the way
// `bench/run.ts` does (bench/results/<name>.json); `npm run bench` renders BENCHMARKS.md from them.
const available: Benchmark[] = [markdownPerformanceBenchmark, markdownLocomoBenchmark];
const wanted = process.argv.slice(2);
const selected = wanted.length === 0 ? available : available.filter((benchmark) => wanted.includes(benchmark.name));
const unknown = wanted.filter((name) => !available.some((benchmark) => benchmark.name === name));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${available.map((benchmark) => benchmark.name).join(', ')}\n`);
  process.exit(2);
}
const resultsDirectory = join(dirname(fileURLToPath(import.meta.url)), 'results');
mkdirSync(resultsDirectory, { recursive: true });
for (const benchmark of selected) {
  process.stdout.write(`running ${benchmark.name}: ${benchmark.description}\n`);
  const result = await benchmark.run();
  const machine = { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown' };
  const stored = { name: benchmark.name, description: benchmark.description, ranAt: new Date().toISOString(), machine, ...result };
  writeFileSync(join(resultsDirectory, `${benchmark.name}.json`), `${JSON.stringify(stored, null, 2)}\n`);
  for (const table of result.tables) {
    process.stdout.write(`\n${table.title}\n${table.columns.join('\t')}\n${table.rows.map((row) => row.join('\t')).join('\n')}\n`);
  }
}
