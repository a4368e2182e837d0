/** The figures of a tour over a period: key numbers and the four pictures (shared by the page and the seller link). */
import { useMemo } from 'react';
import { Bars, ChartFigure, DailyLine } from './charts.js';
import { formatDuration, formatPercent } from '@roomwalk/shared';
import {
  ANALYTICS_TEXTS,
  csvName,
  dailyCsv,
  deviceRows,
  devicesCsv,
  exitRows,
  exitsCsv,
  roomRows,
  roomsCsv,
  shortDay,
  visitCount,
  visitorCount,
  type Figures,
} from './analytics-rules.js';

const EXIT_COLOUR = '#9a3412';
const DEVICE_COLOUR = '#4d5b6b';
const count = (v: number) => String(Math.round(v));

export function FiguresView({ figures: f, period }: { figures: Figures; period: { from: string; to: string } }) {
  const rooms = useMemo(() => roomRows(f), [f]);
  const exits = useMemo(() => exitRows(f), [f]);
  const devices = useMemo(() => deviceRows(f), [f]);
  const roomBars = useMemo(() => rooms.map((r) => ({ name: r.name, value: r.seconds })), [rooms]);
  const exitBars = useMemo(() => exits.map((e) => ({ name: e.name, value: e.visits })), [exits]);
  const deviceBars = useMemo(() => devices.map((d) => ({ name: d.name, value: d.visits })), [devices]);
  const busiest = [...f.daily].sort((a, b) => b.visits - a.visits)[0];
  return (
    <>
      <dl className="analytics-stats" data-testid="analytics-stats">
        <div className="card">
          <dt>Visits</dt>
          <dd>{f.visits}</dd>
        </div>
        <div className="card">
          <dt>Unique visitors</dt>
          <dd>{f.uniqueVisitors}</dd>
        </div>
        <div className="card">
          <dt>Average visit</dt>
          <dd>{formatDuration(f.averageSeconds)}</dd>
        </div>
        <div className="card">
          <dt>Reached the end</dt>
          <dd>{formatPercent(f.completionRate)}</dd>
        </div>
      </dl>
      {f.visits === 0 ? (
        <p className="page-note" data-testid="analytics-empty">
          {ANALYTICS_TEXTS.noVisits}
        </p>
      ) : null}
      <div className="analytics-charts">
        <ChartFigure
          title="Visits and unique visitors per day"
          summary={
            busiest && busiest.visits > 0
              ? `${visitCount(f.visits)} by ${visitorCount(f.uniqueVisitors, 'unique visitor')} in the period; the busiest day was ${shortDay(busiest.date)} with ${visitCount(busiest.visits)} by ${visitorCount(busiest.uniqueVisitors, 'visitor')}.`
              : 'No visits on any day of the period yet.'
          }
          headers={['Date', 'Visits', 'Unique visitors']}
          rows={f.daily.map((d) => [d.date, d.visits, d.uniqueVisitors])}
          csv={() => dailyCsv(f)}
          csvName={csvName('visits-per-day', period)}
          testId="chart-daily"
        >
          <DailyLine daily={f.daily} />
        </ChartFigure>
        <ChartFigure
          title="Time in each room"
          summary={
            rooms[0]
              ? `Buyers spent the most time in the ${rooms[0].name}: ${formatDuration(rooms[0].seconds)} over ${visitCount(rooms[0].visits)}.`
              : ANALYTICS_TEXTS.noRooms
          }
          headers={['Room', 'Time in all', 'Visits', 'Average per visit']}
          rows={rooms.map((r) => [r.name, formatDuration(r.seconds), r.visits, formatDuration(r.average)])}
          csv={() => roomsCsv(f)}
          csvName={csvName('rooms', period)}
          testId="chart-rooms"
        >
          {rooms.length ? <Bars rows={roomBars} format={formatDuration} /> : null}
        </ChartFigure>
        <ChartFigure
          title="Where visits ended"
          summary={
            exits[0]
              ? `Most visits ended in the ${exits[0].name} (${formatPercent(exits[0].share)}).`
              : 'No visit endings recorded yet.'
          }
          headers={['Room', 'Visits ended here', 'Share of visits']}
          rows={exits.map((e) => [e.name, e.visits, formatPercent(e.share)])}
          csv={() => exitsCsv(f)}
          csvName={csvName('exits', period)}
          testId="chart-exits"
        >
          {exits.length ? <Bars rows={exitBars} colour={EXIT_COLOUR} format={count} /> : null}
        </ChartFigure>
        <ChartFigure
          title="Devices"
          summary={
            devices.length
              ? devices.map((d) => `${d.name} ${formatPercent(d.share)}`).join(', ')
              : 'No devices recorded yet.'
          }
          headers={['Device', 'Visits', 'Share of visits']}
          rows={devices.map((d) => [d.name, d.visits, formatPercent(d.share)])}
          csv={() => devicesCsv(f)}
          csvName={csvName('devices', period)}
          testId="chart-devices"
        >
          {devices.some((d) => d.visits > 0) ? <Bars rows={deviceBars} colour={DEVICE_COLOUR} format={count} /> : null}
        </ChartFigure>
      </div>
    </>
  );
}
