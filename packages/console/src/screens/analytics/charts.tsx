/**
 * The analytics pictures, drawn by uPlot (about 22 KB gzip; docs/decisions.md), which loads only with the
 * pages that import this module. Each picture is a <figure> whose canvas is hidden from screen readers: its figures
 * are in a table (shown on request, always read by screen readers) and in a CSV file.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { downloadText } from '../reports/download-file.js';

const BRAND = '#0b5cad';
/** The second line (unique visitors): dashed, 4.9:1 on white. */
const VISITORS = '#a65300';
const AXIS = '#57606a';
const GRID = '#d0d7de';
const FONT = '12px system-ui, sans-serif';

/** A uPlot canvas that follows its box's width. */
function Plot({
  options,
  data,
  height,
}: {
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(240, Math.floor(el.clientWidth));
    const plot = new uPlot({ ...options, width: width(), height } as uPlot.Options, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [options, data, height]);
  return <div ref={box} className="chart-canvas" aria-hidden="true" />;
}

const axis = (extra: Partial<uPlot.Axis> = {}): uPlot.Axis => ({
  stroke: AXIS,
  font: FONT,
  grid: { stroke: GRID, width: 1 },
  ticks: { stroke: GRID, width: 1 },
  ...extra,
});

/** Visits and unique visitors per day as two lines (x: UTC days), with a legend naming them. */
export function DailyLine({
  daily,
}: {
  daily: ReadonlyArray<{ date: string; visits: number; uniqueVisitors: number }>;
}) {
  const state = useMemo(() => {
    const xs = daily.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const ys = daily.map((d) => d.visits);
    const us = daily.map((d) => d.uniqueVisitors);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      legend: { show: true, live: false },
      cursor: { show: false },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(2, Math.ceil(max * 1.15))] } },
      axes: [
        axis({ space: 60, values: (_u, splits) => splits.map((v) => dayLabel(v)) }),
        axis({ size: 40, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')) }),
      ],
      series: [
        {},
        {
          label: 'Visits',
          stroke: BRAND,
          width: 2,
          fill: 'rgba(11, 92, 173, 0.08)',
          points: { show: daily.length <= 31, size: 5, fill: BRAND },
        },
        {
          label: 'Unique visitors',
          stroke: VISITORS,
          width: 2,
          dash: [6, 4],
          points: { show: daily.length <= 31, size: 4, fill: VISITORS },
        },
      ],
    };
    return { options, data: [xs, ys, us] as uPlot.AlignedData };
  }, [daily]);
  return <Plot options={state.options} data={state.data} height={220} />;
}

/** Horizontal bars, one per named row, in the given order (longest first). */
export function Bars({
  rows,
  colour = BRAND,
  format,
}: {
  rows: ReadonlyArray<{ name: string; value: number }>;
  colour?: string;
  format: (v: number) => string;
}) {
  const state = useMemo(() => {
    const names = rows.map((r) => r.name);
    const options: Omit<uPlot.Options, 'width' | 'height'> = {
      legend: { show: false },
      cursor: { show: false },
      scales: {
        // Row 0 (the longest) at the top.
        x: { time: false, ori: 1, dir: -1, range: () => [-0.5, Math.max(0, names.length - 1) + 0.5] },
        y: { ori: 0, dir: 1, range: (_u, _min, max) => [0, Math.max(1, max * 1.05)] },
      },
      axes: [
        axis({
          side: 3,
          grid: { show: false },
          size: 120,
          gap: 6,
          splits: () => names.map((_n, i) => i),
          values: (_u, splits) => splits.map((i) => clip(names[i] ?? '', 16)),
        }),
        // Whole units only: a tick between two seconds (or visits) would repeat its neighbour's label.
        axis({
          side: 2,
          size: 36,
          space: 56,
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? format(v) : '')),
        }),
      ],
      series: [
        {},
        {
          label: 'Value',
          fill: colour,
          stroke: colour,
          width: 0,
          points: { show: false },
          paths: uPlot.paths.bars!({ size: [0.65, 28] }),
        },
      ],
    };
    return {
      options,
      data: [names.map((_n, i) => i), rows.map((r) => r.value)] as uPlot.AlignedData,
      height: 48 + Math.max(1, names.length) * 34,
    };
  }, [rows, colour, format]);
  return <Plot options={state.options} data={state.data} height={state.height} />;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A UTC day's unix seconds → '20 Nov' (the axis of visits per day). */
const dayLabel = (secs: number) => {
  const d = new Date(secs * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
};
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export interface ChartFigureProps {
  title: string;
  /** One sentence that says what the picture shows (read with the table). */
  summary: string;
  headers: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
  csv: () => string;
  csvName: string;
  children: ReactNode;
  testId?: string;
}

/** A picture with its title, a one-line summary, a table toggle and a CSV download. */
export function ChartFigure({ title, summary, headers, rows, csv, csvName, children, testId }: ChartFigureProps) {
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  return (
    <figure className="chart card" aria-labelledby={`${id}-title`} data-testid={testId}>
      <figcaption className="chart-head">
        <h3 id={`${id}-title`}>{title}</h3>
        <p className="field-hint">{summary}</p>
      </figcaption>
      {children}
      <div className="chart-actions">
        <SlButton
          size="small"
          aria-expanded={showTable}
          aria-controls={`${id}-table`}
          onClick={() => setShowTable((v) => !v)}
        >
          <SlIcon slot="prefix" name="table" />
          {showTable ? 'Hide table' : 'Show table'}
        </SlButton>
        <SlButton size="small" onClick={() => downloadText(csv(), csvName)}>
          <SlIcon slot="prefix" name="download" />
          Download CSV<span className="visually-hidden"> of {title}</span>
        </SlButton>
      </div>
      {/* Always in the page for screen readers; shown on request for everyone else. */}
      <div id={`${id}-table`} className={showTable ? 'chart-table' : 'visually-hidden'}>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {headers.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={String(r[0])}>
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={headers[j]} scope="row">
                      {c}
                    </th>
                  ) : (
                    <td key={headers[j]}>{c}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
