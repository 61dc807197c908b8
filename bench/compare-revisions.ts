/**
 * `npm run bench:compare -- <base revision> <benchmark>...`: runs benchmarks at an older revision
 * and at this working tree, alternating the two round by round so the noise of the machine falls
 * on both alike, and writes the medians side by side to `bench/results/revision-comparison.{json,md}`.
 * The base is checked out in a temporary git worktree (installed and built there, removed after).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareRounds, renderComparison, type ResultTable } from './revision-comparison';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
const environment = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', MEM0_TELEMETRY: 'false' };

function run(command: string, args: string[], cwd: string): string {
  process.stderr.write(`$ (${cwd === repository ? 'current' : 'base'}) ${command} ${args.join(' ')}\n`);
  return execFileSync(command, args, { cwd, env: environment, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 256 * 1024 * 1024 });
}

/** Runs one benchmark in a tree and returns the tables it stored. */
function tablesOf(tree: string, benchmark: string): ResultTable[] {
  run(process.execPath, ['--import', 'tsx', 'bench/run.ts', benchmark], tree);
  return (JSON.parse(readFileSync(join(tree, 'bench', 'results', `${benchmark}.json`), 'utf8')) as { tables: ResultTable[] }).tables;
}

function main(): void {
  const argv = process.argv.slice(2);
  const roundsFlag = argv.indexOf('--rounds');
  const rounds = roundsFlag === -1 ? 3 : Number(argv.splice(roundsFlag, 2)[1]);
  const [baseRevision, ...wanted] = argv;
  if (baseRevision === undefined || wanted.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
    process.stderr.write('Usage: npm run bench:compare -- <base revision> <benchmark>... [--rounds 3]\n');
    process.exit(2);
  }
  const base = run('git', ['rev-parse', '--short', baseRevision], repository).trim();
  const current = run('git', ['rev-parse', '--short', 'HEAD'], repository).trim();
  const worktree = join(mkdtempSync(join(tmpdir(), 'memplane-bench-base-')), 'tree');
  run('git', ['worktree', 'add', '--detach', worktree, base], repository);
  try {
    run('npm', ['ci', '--no-audit', '--no-fund'], worktree);
    for (const tree of [worktree, repository]) run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], tree);
    const results: Record<string, { base: ResultTable[][]; current: ResultTable[][] }> = {};
    for (const benchmark of wanted) results[benchmark] = { base: [], current: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const benchmark of wanted) {
        // Alternating which revision runs first, round by round, as well as between the two.
        const order = round % 2 === 0 ? (['base', 'current'] as const) : (['current', 'base'] as const);
        for (const side of order) results[benchmark]![side].push(tablesOf(side === 'base' ? worktree : repository, benchmark));
      }
    }
    const compared = Object.fromEntries(Object.entries(results).map(([benchmark, { base: baseRounds, current: currentRounds }]) => [benchmark, compareRounds(baseRounds, currentRounds)]));
    const machine = `Node ${process.version}, ${run('nproc', [], repository).trim()} CPUs`;
    const markdown = [
      `# Benchmarks at ${base} and at ${current}`,
      '',
      `Reproduce: \`npm run bench:compare -- ${baseRevision} ${wanted.join(' ')} --rounds ${rounds}\`. Run ${new Date().toISOString()} on ${machine}.`,
      '',
      ...Object.entries(compared).flatMap(([benchmark, rows]) => [`## ${benchmark}`, '', renderComparison(rows, base, current, rounds)]),
    ].join('\n');
    writeFileSync(join(repository, 'bench', 'results', 'revision-comparison.json'), `${JSON.stringify({ base, current, rounds, machine, compared }, null, 2)}\n`);
    writeFileSync(join(repository, 'bench', 'results', 'revision-comparison.md'), markdown);
    process.stdout.write(`${markdown}\n`);
  } finally {
    run('git', ['worktree', 'remove', '--force', worktree], repository);
    rmSync(dirname(worktree), { recursive: true, force: true });
  }
}

main();
