import { formatNumber, type Benchmark, type BenchTable } from './bench-harness';
import { explorerFilterCases } from './server-operation-log';
import { defaultExplorerLogEntries, explorerLogEntries, explorerRepeats, measureExplorer, type ExplorerFigures } from './server-explorer';
import { loopbackConcurrency, loopbackRecords, loopbackWorkloads, measureLoopback } from './server-loopback';
import { ensurePostgres } from './service-store-synthetic-log';

/** The first page of operations must answer within this server time, whatever the filter. */
const firstPageTargetMs = 300;

function loopbackTable(figures: Awaited<ReturnType<typeof measureLoopback>>): BenchTable {
  const rows: string[][] = [];
  for (const workload of Object.keys(loopbackWorkloads)) {
    const http = figures[`${workload}, HTTP over loopback`]!;
    const local = figures[`${workload}, in process`]!;
    for (const [name, figure] of [
      ['HTTP over loopback', http],
      ['in process', local],
    ] as const) {
      rows.push([
        workload,
        name,
        formatNumber(figure.callsPerSecond, 0),
        formatNumber(figure.p50Ms, 2),
        formatNumber(figure.p99Ms, 2),
        figure.serverP50Ms === undefined ? '–' : `${formatNumber(figure.serverP50Ms, 2)} / ${formatNumber(figure.serverP99Ms!, 2)}`,
        name === 'in process' ? '1.00' : formatNumber(http.callsPerSecond / local.callsPerSecond, 2),
      ]);
    }
  }
  return {
    title: `Query and list, ${loopbackConcurrency} concurrent clients, embedded default`,
    columns: ['call', 'path', 'calls per second', 'p50 latency (ms)', 'p99 latency (ms)', 'server time p50 / p99 (ms)', 'throughput vs in process'],
    rows,
    notes: [
      `\`memplane serve\` (\`serveMemplane\`, the embedded default: SQLite service store and markdown memory in a fresh data folder) runs in a process of its own; the bench process is ${loopbackConcurrency} clients calling \`POST /v1/companies/acme/memory/query\` (\`${JSON.stringify(loopbackWorkloads.query.body)}\`) or \`/list\` (\`${JSON.stringify(loopbackWorkloads.list.body)}\`) with an agent token over keep-alive loopback connections, each waiting for its answer before the next call. Rate limits off.`,
      `In process: the same calls on \`service.runtime(...)\` of a service opened the same way (\`openDataFolderService\`) in the bench process, ${loopbackConcurrency} callers at once. Both hold the same ${loopbackRecords.toLocaleString('en-US')} records in the agent's markdown memory.`,
      'Rounds of 400 calls, HTTP and in process interleaved (6 measured rounds each, after one warm-up round each). Calls per second: median over rounds. Latency: percentiles of every measured call as the client saw it. Server time: from the request reaching the Node HTTP server to the response handed to the socket, read in the server process.',
      'Client and server share the machine\'s 2 cores, so the HTTP rows also pay for the clients\' own HTTP work.',
    ],
  };
}

function explorerTable(measured: Record<string, ExplorerFigures>): BenchTable {
  const stores = Object.keys(measured);
  return {
    title: `First page of operations over a ${explorerLogEntries().toLocaleString('en-US')}-entry log, per filter (server time, ms, median)`,
    columns: ['filter (company acme)', ...stores.flatMap((store) => [`${store}: first page`, 'next page', 'entries', `≤ ${firstPageTargetMs} ms`])],
    rows: explorerFilterCases.map((filterCase) => [
      `${filterCase.name} \`${JSON.stringify(filterCase.query)}\``,
      ...stores.flatMap((store) => {
        const figure = measured[store]!.filters[filterCase.name]!;
        return [
          formatNumber(figure.firstMs, 1),
          figure.nextMs === null ? '–' : formatNumber(figure.nextMs, 1),
          String(figure.items),
          figure.firstMs <= firstPageTargetMs ? 'yes' : '**no**',
        ];
      }),
    ]),
    notes: [
      `\`GET /v1/companies/acme/explorer/operations?…&limit=50\` with a company-admin token, ${explorerRepeats} calls per filter after one warm-up call, the median server time reported; the next page follows the first page's \`nextCursor\` (– when there is none). Target: ≤ ${firstPageTargetMs} ms for the first page, every filter.`,
      `The log (bench/server-operation-log.ts): ${explorerLogEntries().toLocaleString('en-US')} entries, 90% in company acme, 5 bindings, 50 agents, 20 projects, 5,000 issues, runs of 50 entries, a source on 3 in 10, 1 in 33 failed, over 30 days. Each filter also has a rare value on 1 entry in 100,000 (10 in acme) and some an absent one: their page must reach back through the whole log, which a read of the company's newest entries cannot do quickly.`,
      `Seeded through the store's own \`appendOperations\` in batches of 10,000 (one transaction each; on Postgres one INSERT … SELECT FROM unnest per batch), not through the service, into a store at the schema before the filter indexes (SQLite 4, Postgres 5): ${stores.map((store) => `${store} ${formatNumber(measured[store]!.seedSeconds, 0)} s (${formatNumber(explorerLogEntries() / measured[store]!.seedSeconds, 0)} entries/s)`).join(', ')}. Then the store's \`migrate()\` adds the filter indexes to the existing log, as it does for an operator's database: ${stores.map((store) => `${store} ${formatNumber(measured[store]!.migrateSeconds, 1)} s`).join(', ')}. Postgres: ANALYZE after, as autovacuum does. SQLite: no ANALYZE (the store never runs it; each page names its index).`,
    ],
  };
}

function chartsTable(measured: Record<string, ExplorerFigures>): BenchTable {
  const stores = Object.keys(measured);
  const names = Object.keys(measured[stores[0]!]!.charts);
  return {
    title: 'The charts\' aggregates over the same log (server time, ms, median)',
    columns: ['call', ...stores],
    rows: names.map((name) => [name, ...stores.map((store) => formatNumber(measured[store]!.charts[name]!, 0))]),
    notes: [
      'One day of company acme is about 30,000 entries. `operation-counts` and `metrics` read every entry of the range (the hour index narrows a date range to positions): their time grows with the range, about linearly. The usage page asks for 14 daily metrics and the 14-day range at once; its time is that of the slowest answer.',
    ],
  };
}

export const serverBenchmark: Benchmark = {
  name: 'server',
  get resultName() {
    return explorerLogEntries() === defaultExplorerLogEntries ? undefined : `server-${explorerLogEntries()}`;
  },
  get description() {
    return `\`memplane serve\` on the embedded default: query and list over loopback with 16 concurrent clients beside the same calls in process, and the explorer's first page of operations over a ${explorerLogEntries().toLocaleString('en-US')}-entry log for every filter (SQLite, and Postgres when a server is available).`;
  },
  async run() {
    const loopback = await measureLoopback();
    const measured: Record<string, ExplorerFigures> = { 'SQLite (embedded default)': await measureExplorer({ kind: 'sqlite' }) };
    const postgres = ensurePostgres();
    if (postgres.url !== undefined) measured['Postgres 15 (local)'] = await measureExplorer({ kind: 'postgres', url: postgres.url });
    const tables = [loopbackTable(loopback), explorerTable(measured), chartsTable(measured)];
    if (postgres.url === undefined) tables[1]!.notes!.push(`Postgres skipped: ${postgres.reason ?? 'no server'}.`);
    return { tables, figures: { loopback, explorer: measured } };
  },
};
