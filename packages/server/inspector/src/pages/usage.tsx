import { useMemo, useState } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryCostSummary, MemoryOperationMetrics } from '../api/types';
import { ShortTime } from '../components/details-list';
import { ErrorBanner } from '../components/error-banner';
import { SelectField } from '../components/field';
import { Pager, useCursorPages } from '../components/pager';
import { TimeChart, type ChartSeries } from '../components/time-chart';
import { useInspector } from '../context';
import { bindingGroupLabel, unresolvedBindingHint, unresolvedBindingKey, unresolvedBindingLabel } from '../labels';
import { navigate, useRoute } from '../routing';
import { useAsync } from '../use-async';
import { FinanceEventForm } from './finance-form';

const dayMs = 86_400_000;
const percent = (value: number) => `${Math.round(value * 100)}%`;
const cents = (value: number) => `$${(value / 100).toFixed(2)}`;
const milliseconds = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** UTC midnights of the last `count` days, oldest first, ending today. */
function lastDays(count: number, now = Date.now()): number[] {
  const today = Math.floor(now / dayMs) * dayMs;
  return Array.from({ length: count }, (_, index) => today - (count - 1 - index) * dayMs);
}

/** Maps with at most four calls in flight, keeping the order. */
async function mapFourAtATime<Item, Result>(items: Item[], map: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await map(items[index] as Item);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return results;
}

interface DayFigures {
  days: number[];
  perDay: MemoryOperationMetrics[];
  costs: MemoryCostSummary;
  range: MemoryOperationMetrics;
}

/** Binding keys sorted, the group of calls refused before a binding was chosen last. */
const byBindingKey = (left: string, right: string) => Number(left === unresolvedBindingKey) - Number(right === unresolvedBindingKey) || left.localeCompare(right);

/** A series label: `notes p50`, and `Refused before a binding was chosen (p50)` for that group. */
const seriesLabel = (key: string, suffix: string) =>
  suffix === '' ? bindingGroupLabel(key) : key === unresolvedBindingKey ? `${bindingGroupLabel(key)} (${suffix})` : `${key} ${suffix}`;

/** One series per binding, from the per-day metrics. */
function perBinding(
  figures: DayFigures,
  pick: (row: MemoryOperationMetrics['bindings'][number]) => number | null,
  suffix: string,
  absent: number | null,
): ChartSeries[] {
  const keys = [...new Set(figures.perDay.flatMap((day) => day.bindings.map((row) => row.bindingKey)))].sort(byBindingKey);
  return keys.map((key) => ({
    label: seriesLabel(key, suffix),
    values: figures.perDay.map((day) => {
      const row = day.bindings.find((candidate) => candidate.bindingKey === key);
      return row === undefined ? absent : pick(row);
    }),
  }));
}

function FinanceEvents({ bindingKeys, onBooked }: { bindingKeys: string[]; onBooked: () => void }) {
  const { api, companyId } = useInspector();
  const pages = useCursorPages('finance');
  const [generation, setGeneration] = useState(0);
  const page = useAsync(() => endpoints(api, companyId).financeEvents(pages.cursor, 10), [api, companyId, pages.cursor, generation]);
  return (
    <section aria-labelledby="finance-title">
      <h2 id="finance-title">Finance events</h2>
      <FinanceEventForm
        bindingKeys={bindingKeys}
        onBooked={() => {
          pages.first();
          setGeneration((value) => value + 1);
          onBooked();
        }}
      />
      <ErrorBanner error={page.error} />
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">Biller</th>
              <th scope="col">Binding</th>
              <th scope="col">Amount</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {(page.data?.items ?? []).map((event) => (
              <tr key={event.id}>
                <td>
                  <ShortTime iso={event.occurredAt} />
                </td>
                <td>{event.kind}</td>
                <td>{event.biller}</td>
                <td>{event.bindingKey ?? '—'}</td>
                <td className="number">
                  {event.direction === 'credit' ? '−' : ''}
                  {cents(event.amountCents)}
                  {event.estimated ? ' (estimate)' : ''}
                </td>
                <td>{event.description ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.data !== undefined && page.data.items.length === 0 ? <p>No finance events booked.</p> : null}
      <Pager label="Finance events" pageNumber={pages.pageNumber} nextCursor={page.data?.nextCursor} onNext={pages.next} onPrevious={pages.previous} />
    </section>
  );
}

/** Usage and cost: operations and failures per binding over time, latency, recall, cost per day, finance events. */
export function UsagePage() {
  const { api, companyId } = useInspector();
  const route = useRoute();
  const dayCount = Number(route.params.get('days') ?? '14') || 14;
  const bindingKey = route.params.get('binding') ?? '';
  const bindings = useAsync(() => endpoints(api, companyId).bindings(), [api, companyId]);
  const figures = useAsync(async (): Promise<DayFigures> => {
    const calls = endpoints(api, companyId);
    const days = lastDays(dayCount);
    const iso = (ms: number) => new Date(ms).toISOString();
    const from = iso(days[0] ?? Date.now());
    const to = iso((days[days.length - 1] ?? Date.now()) + dayMs);
    const binding = bindingKey === '' ? {} : { bindingKey };
    // One metrics call per day: the log is summed by the server, never shipped to the page.
    // Four at a time, so a 30-day range stays well inside a token's burst allowance.
    const [perDay, costs, range] = await Promise.all([
      mapFourAtATime(days, (day) => calls.metrics({ from: iso(day), to: iso(day + dayMs), ...binding })),
      calls.costSummary('day', { from, to }),
      calls.metrics({ from, to, ...binding }),
    ]);
    return { days: days.map((day) => day / 1000), perDay, costs, range };
  }, [api, companyId, dayCount, bindingKey]);

  const charts = useMemo(() => {
    const data = figures.data;
    if (data === undefined) return undefined;
    const costOf = (day: number) => data.costs.groups.find((group) => group.group === new Date(day * 1000).toISOString().slice(0, 10));
    return {
      // A day without operations counts zero; it has no latency.
      operations: perBinding(data, (row) => row.operations, '', 0),
      failures: perBinding(data, (row) => row.failed, 'failed', 0),
      latency: [...perBinding(data, (row) => row.latencyP50Ms, 'p50', null), ...perBinding(data, (row) => row.latencyP95Ms, 'p95', null)],
      recall: [
        { label: 'recall hit rate', values: data.perDay.map((day) => day.totals.recallHitRate) },
        { label: 'empty-query rate', values: data.perDay.map((day) => day.totals.emptyQueryRate) },
      ],
      cost: [
        { label: 'metered', bars: true, values: data.days.map((day) => costOf(day)?.meteredCents ?? 0) },
        { label: 'flat (finance events)', bars: true, values: data.days.map((day) => costOf(day)?.flatCents ?? 0) },
      ],
    };
  }, [figures.data]);

  return (
    <>
      <form className="filters" aria-label="Usage range" onSubmit={(event) => event.preventDefault()}>
        <SelectField
          label="Range"
          name="days"
          value={String(dayCount)}
          options={[
            { value: '7', label: 'last 7 days' },
            { value: '14', label: 'last 14 days' },
            { value: '30', label: 'last 30 days' },
          ]}
          onChange={(value) => navigate(companyId, 'usage', { days: value, binding: bindingKey })}
        />
        <SelectField
          label="Binding"
          name="binding"
          value={bindingKey}
          empty="every binding"
          options={(bindings.data ?? []).map((binding) => binding.key)}
          onChange={(value) => navigate(companyId, 'usage', { days: String(dayCount), binding: value })}
        />
      </form>
      <ErrorBanner error={figures.error} />
      {figures.data === undefined || charts === undefined ? (
        figures.loading ? <p role="status">Loading figures…</p> : null
      ) : (
        <>
          <section aria-labelledby="totals-title">
            <h2 id="totals-title">Per binding over the range</h2>
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Binding</th>
                    <th scope="col">Operations</th>
                    <th scope="col">Failed</th>
                    <th scope="col">p50</th>
                    <th scope="col">p95</th>
                    <th scope="col">Recall hit rate</th>
                    <th scope="col">Empty-query rate</th>
                    <th scope="col">Corrections</th>
                    <th scope="col">Extraction failures</th>
                  </tr>
                </thead>
                <tbody>
                  {[...figures.data.range.bindings].sort((left, right) => byBindingKey(left.bindingKey, right.bindingKey)).map((row) => (
                    <tr key={row.bindingKey}>
                      {row.bindingKey === unresolvedBindingKey ? (
                        <th scope="row" className="group-label" title={unresolvedBindingHint}>
                          {unresolvedBindingLabel}
                        </th>
                      ) : (
                        <th scope="row">{row.bindingKey}</th>
                      )}
                      <td className="number">{row.operations}</td>
                      <td className="number">{row.failed}</td>
                      <td className="number">{milliseconds(row.latencyP50Ms)}</td>
                      <td className="number">{milliseconds(row.latencyP95Ms)}</td>
                      <td className="number">{row.recallHitRate === null ? '—' : percent(row.recallHitRate)}</td>
                      <td className="number">{row.emptyQueryRate === null ? '—' : percent(row.emptyQueryRate)}</td>
                      <td className="number">{row.corrections}</td>
                      <td className="number">{row.extractionFailures}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              Metered cost {cents(figures.data.costs.totals.meteredCents)}, flat cost {cents(figures.data.costs.totals.flatCents)}, total{' '}
              {cents(figures.data.costs.totals.totalCents)}.
            </p>
          </section>
          <div className="charts">
            <TimeChart title="Operations per day, per binding" unit="operations" days={figures.data.days} series={charts.operations} />
            <TimeChart title="Failures per day, per binding" unit="failures" days={figures.data.days} series={charts.failures} />
            <TimeChart title="Latency p50 and p95 per day" unit="ms" days={figures.data.days} series={charts.latency} format={(value) => (value < 10 ? value.toFixed(1) : String(Math.round(value)))} />
            <TimeChart title="Recall hit rate and empty-query rate per day" unit="share of queries" days={figures.data.days} series={charts.recall} format={percent} />
            <TimeChart title="Cost per day" unit="US dollars" days={figures.data.days} series={charts.cost} format={cents} />
          </div>
        </>
      )}
      <FinanceEvents bindingKeys={(bindings.data ?? []).map((binding) => binding.key)} onBooked={figures.reload} />
    </>
  );
}
