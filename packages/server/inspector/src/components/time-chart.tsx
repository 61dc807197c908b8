import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line or bar series of a chart. */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  bars?: boolean;
}

const palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#4b5563'];

/**
 * A time chart drawn by uPlot (canvas), with the same figures as a table beneath it for
 * keyboards and screen readers. `days` are UTC midnights in seconds.
 */
export function TimeChart(props: { title: string; days: number[]; series: ChartSeries[]; unit: string; format?: (value: number) => string }) {
  const target = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const format = props.format ?? ((value: number) => String(value));

  useEffect(() => {
    const element = target.current;
    if (element === null) return undefined;
    const width = () => Math.max(280, Math.floor(element.clientWidth));
    const chart = new uPlot(
      {
        width: width(),
        height: 220,
        scales: { x: { time: true } },
        axes: [{}, { label: props.unit, values: (_, ticks) => ticks.map((tick) => format(tick)) }],
        series: [
          { label: 'day (UTC)' },
          ...props.series.map((series, index) => ({
            label: series.label,
            stroke: palette[index % palette.length],
            width: 2,
            fill: series.bars === true ? `${palette[index % palette.length]}55` : undefined,
            points: { show: true, size: 5 },
            spanGaps: false,
            ...(series.bars === true ? { paths: uPlot.paths.bars?.({ size: [0.6, 48] }) } : {}),
            value: (_: uPlot, value: number | null) => (value === null ? '—' : format(value)),
          })),
        ],
        legend: { live: false },
      },
      [props.days, ...props.series.map((series) => series.values)],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
    // The chart is rebuilt when its figures change; format is derived from props that change with them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.days, props.series, props.unit]);

  const dayText = (day: number) => new Date(day * 1000).toISOString().slice(0, 10);
  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{props.title}</figcaption>
      <div ref={target} className="chart-canvas" role="img" aria-label={`${props.title}: chart; the table below has the same figures`} />
      <details>
        <summary>{props.title}: figures as a table</summary>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">day (UTC)</th>
                {props.series.map((series) => (
                  <th scope="col" key={series.label}>
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.days.map((day, index) => (
                <tr key={day}>
                  <th scope="row">{dayText(day)}</th>
                  {props.series.map((series) => {
                    const value = series.values[index];
                    return <td key={series.label}>{value === null || value === undefined ? '—' : format(value)}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
