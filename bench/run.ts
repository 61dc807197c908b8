import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Benchmark } from './bench-harness';
import { benchmarks } from './benchmarks';
import { handWrittenNotes, renderMarkdown, type StoredResult } from './benchmarks-markdown';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const resultsDirectory = join(benchDirectory, 'results');
const benchmarksFile = join(benchDirectory, '..', 'BENCHMARKS.md');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `--locomo <path>` points the LoCoMo benchmark at its data, which never lives in the repository.
  const locomoFlag = argv.indexOf('--locomo');
  if (locomoFlag !== -1) {
    const path = argv[locomoFlag + 1];
    if (path === undefined) {
      process.stderr.write('--locomo needs the path of locomo10-dev.json\n');
      process.exit(2);
    }
    process.env.MEMPLANE_LOCOMO_PATH = path;
    argv.splice(locomoFlag, 2);
  }
  // `--records <n>` sets the corpus size of the benchmarks that take one (markdown-performance);
  // their results are then stored under a name with the size, beside the default run's.
  const recordsFlag = argv.indexOf('--records');
  let options = '';
  if (recordsFlag !== -1) {
    const count = argv[recordsFlag + 1];
    if (count === undefined || !/^[1-9][0-9]*$/.test(count)) {
      process.stderr.write('--records needs a positive whole number of records\n');
      process.exit(2);
    }
    process.env.MEMPLANE_BENCH_RECORDS = count;
    options = ` -- --records ${count}`;
    argv.splice(recordsFlag, 2);
  }
  const wanted = argv;
  const unknown = wanted.filter((name) => !benchmarks.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${benchmarks.map((b) => b.name).join(', ')}\n`);
    process.exit(2);
  }
  const selected: Benchmark[] = wanted.length === 0 ? benchmarks : benchmarks.filter((b) => wanted.includes(b.name));
  mkdirSync(resultsDirectory, { recursive: true });
  for (const benchmark of selected) {
    process.stdout.write(`running ${benchmark.name}: ${benchmark.description}\n`);
    const result = await benchmark.run();
    const name = benchmark.resultName ?? benchmark.name;
    const stored: StoredResult = {
      name,
      ...(name === benchmark.name ? {} : { reproduce: `npm run bench ${benchmark.name}${options}` }),
      description: benchmark.description,
      ranAt: new Date().toISOString(),
      machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown' },
      ...result,
    };
    writeFileSync(join(resultsDirectory, `${name}.json`), `${JSON.stringify(stored, null, 2)}\n`);
    for (const table of result.tables) {
      process.stdout.write(`\n${table.title}\n${table.columns.join('\t')}\n${table.rows.map((row) => row.join('\t')).join('\n')}\n`);
    }
  }
  const order = benchmarks.map((benchmark) => benchmark.name);
  // A result stored under a sized name (markdown-performance-10k) sits with its benchmark.
  const rank = (name: string) => order.findIndex((known) => name === known || name.startsWith(`${known}-`));
  const stored = readdirSync(resultsDirectory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(resultsDirectory, file), 'utf8')) as Partial<StoredResult>)
    // Other JSON lives there too (bench:compare's revision-comparison.json has no name): only results are rendered.
    .filter((result): result is StoredResult => typeof result.name === 'string' && rank(result.name) !== -1)
    .sort((left, right) => rank(left.name) - rank(right.name) || left.name.localeCompare(right.name));
  const notes = existsSync(benchmarksFile) ? handWrittenNotes(readFileSync(benchmarksFile, 'utf8')) : new Map<string, string[]>();
  writeFileSync(benchmarksFile, renderMarkdown(stored, notes));
  process.stdout.write(`\nwrote ${benchmarksFile}\n`);
}

await main();
