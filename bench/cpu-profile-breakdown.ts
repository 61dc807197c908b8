import { Session } from 'node:inspector/promises';
import { formatNumber, type BenchTable } from './bench-harness';
import type { OverheadVariants } from './hosted-adapter-overhead';

/** A group of code the CPU time is charged to, recognised by the script URL of a sampled frame. */
export interface CodeCategory {
  /** The name in the table, such as `@memplane/mem0`. */
  name: string;
  /** Matches the script URL of frames that belong to it. */
  url: RegExp;
}

/** A node of a V8 CPU profile, as far as the breakdown reads it. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** A V8 CPU profile (`Profiler.stop`), as far as the breakdown reads it. */
export interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** What every hosted adapter benchmark sorts by, after its own adapter and SDK. */
export const sharedCategories: CodeCategory[] = [
  { name: '@memplane/core', url: /\/packages\/core\/dist\// },
  { name: 'zod', url: /\/node_modules\/zod\// },
  { name: 'the provider fake and msw', url: /\/adapters\/[^/]+\/src\/|\/node_modules\/(msw|@mswjs)\/|\/bench\/provider-fake-transport/ },
  { name: 'fetch (undici) and node:http', url: /^node:internal\/deps\/undici|^node:_http|^node:http/ },
  { name: 'node:crypto', url: /^node:internal\/crypto/ },
  { name: 'timers and abort signals', url: /^node:internal\/(abort_controller|timers)|^node:timers/ },
];

const garbageCollector = '(garbage collector)';
const idle = '(idle)';
const otherCategory = 'other Node.js and native code';

/**
 * Samples the CPU with V8's profiler while each variant is called `calls` times, in
 * alternating chunks (so a drift of the machine or of the JIT reaches both alike), and
 * returns the time per call charged to each category, in µs. A sample is charged by the
 * innermost frame that has a script (native built-ins such as `JSON.parse` have none, so they
 * go to their caller); garbage collection is its own row, and idle time is left out.
 */
export async function profileByCategory(
  variants: OverheadVariants,
  calls: number,
  categories: CodeCategory[],
  chunks = 8,
): Promise<Record<keyof OverheadVariants, Map<string, number>>> {
  const totals = { direct: new Map<string, number>(), adapter: new Map<string, number>() };
  const callsPerChunk = Math.ceil(calls / chunks);
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    for (let chunk = 0; chunk < chunks; chunk += 1) {
      const order: Array<keyof OverheadVariants> = chunk % 2 === 0 ? ['direct', 'adapter'] : ['adapter', 'direct'];
      for (const variant of order) {
        await session.post('Profiler.start');
        for (let call = 0; call < callsPerChunk; call += 1) await variants[variant]();
        const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
        for (const [category, time] of chargeProfileSamples(profile, categories, callsPerChunk * chunks)) {
          totals[variant].set(category, (totals[variant].get(category) ?? 0) + time);
        }
      }
    }
    return totals;
  } finally {
    session.disconnect();
  }
}

/** The sampled time of a profile per category, divided by `calls` (see {@link profileByCategory}). */
export function chargeProfileSamples(profile: Profile, categories: CodeCategory[], calls: number): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const categoryOf = new Map<number, string | undefined>();
  const resolve = (id: number): string | undefined => {
    if (categoryOf.has(id)) return categoryOf.get(id);
    const frame = nodes.get(id)?.callFrame;
    let category: string | undefined;
    if (frame === undefined || frame.functionName === idle) category = undefined;
    else if (frame.functionName === garbageCollector) category = 'garbage collection';
    else if (frame.url === '') {
      const parent = parents.get(id);
      category = parent === undefined ? otherCategory : resolve(parent);
    } else category = categories.find((candidate) => candidate.url.test(frame.url))?.name ?? otherCategory;
    categoryOf.set(id, category);
    return category;
  };
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let index = 0; index < samples.length; index += 1) {
    const category = resolve(samples[index]!);
    if (category !== undefined) totals.set(category, (totals.get(category) ?? 0) + (deltas[index] ?? 0) / calls);
  }
  return totals;
}

/**
 * A table of where each variant of each operation spends its CPU time, with the difference
 * per category: what the adapter adds, and where.
 */
export async function profileBreakdownTable(
  title: string,
  operations: Record<string, OverheadVariants>,
  categories: CodeCategory[],
  calls: number,
  figures: Record<string, unknown>,
): Promise<BenchTable> {
  const names = [...categories.map((category) => category.name), 'garbage collection', otherCategory];
  const columns = ['code'];
  const cells = new Map<string, string[]>(names.map((name) => [name, []]));
  const totals: string[] = [];
  for (const [operation, variants] of Object.entries(operations)) {
    const { direct, adapter } = await profileByCategory(variants, calls, categories);
    figures[`CPU profile: ${operation}`] = { direct: Object.fromEntries(direct), adapter: Object.fromEntries(adapter), calls };
    columns.push(`${operation}: SDK directly`, `${operation}: adapter`, `${operation}: difference`);
    for (const name of names) {
      const [before, after] = [direct.get(name) ?? 0, adapter.get(name) ?? 0];
      cells.get(name)!.push(formatNumber(before, 0), formatNumber(after, 0), formatNumber(after - before, 0));
    }
    const [directTotal, adapterTotal] = [sum(direct), sum(adapter)];
    totals.push(formatNumber(directTotal, 0), formatNumber(adapterTotal, 0), formatNumber(adapterTotal - directTotal, 0));
  }
  return {
    title,
    columns,
    rows: [...names.map((name) => [name, ...cells.get(name)!]), ['total', ...totals]],
    notes: [
      `µs of CPU per call, from V8's sampling profiler (one sample per 100 µs) over ${calls} calls of each variant, run after the timed rounds in alternating chunks of both variants. The profiler slows every call, so read the rows against each other, not against the timed tables.`,
      'A sample is charged to the innermost frame with a script: native built-ins such as `JSON.parse` count for the code that called them. Background threads (concurrent marking, compilation) are not sampled.',
      "The SDK variant spends nothing in the rows of the adapter and core, so those differences are the adapter's own code (node:crypto too, where the SDK itself does not sign or hash). The rows both variants run in (the SDK, the fake, fetch, garbage collection, other) move by a few hundred µs between chunks either way; read their differences as noise unless the timed table agrees.",
    ],
  };
}

function sum(values: Map<string, number>): number {
  let total = 0;
  for (const value of values.values()) total += value;
  return total;
}
