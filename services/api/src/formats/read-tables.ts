import type {
  CandlesBody,
  PointsBody,
  RawBody,
  SeriesBody,
  WindowBody,
} from '../response-schemas.js';
import {
  instantCells,
  instantColumns,
  namedColumns,
  namesOf,
  tagColumns,
  type Cell,
  type Column,
  type Table,
} from './table.js';

/*
 * Each read's answer as a tidy table (docs/analysts.md has the columns per route): the row's
 * time first, then the series and its tags as columns, then the values. What JSON says about the
 * read as a whole (examined, gaps, resolution, truncated) is not in these tables: a gap is rows
 * that are not there, never zeros.
 */

const text = (name: string): Column => ({ name, kind: 'text' });
const number = (name: string): Column => ({ name, kind: 'number' });
const FINAL: Column = { name: 'final', kind: 'bool' };

/** A table whose rows are of known series: time columns, `series`, its tags, then `values`. */
function seriesTable<R>(
  rows: readonly R[],
  seriesOf: (row: R) => string,
  lead: readonly Column[],
  values: readonly Column[],
  cells: (row: R) => { lead: Cell[]; values: Cell[] },
): Table {
  const fixedLead = [...lead, text('series')];
  const tags = tagColumns([...new Set(rows.map(seriesOf))], namesOf(fixedLead, values));
  return {
    columns: [...fixedLead, ...tags.columns, ...values],
    rows: rows.map((row) => {
      const series = seriesOf(row);
      const { lead, values } = cells(row);
      return [...lead, series, ...tags.cells(tags.tagsOf(series)), ...values];
    }),
  };
}

/** Points: the interval's start, n, sum, avg, min, max, first and last value (JSON's open, close). */
export function pointsTable(body: PointsBody): Table {
  return seriesTable(
    body.points,
    () => body.series,
    instantColumns('time'),
    [text('field'), ...['n', 'sum', 'avg', 'min', 'max', 'first', 'last'].map(number), FINAL],
    (p) => ({
      lead: instantCells(p.t),
      values: [body.field, p.n, p.sum, p.avg, p.min, p.max, p.open, p.close, p.final],
    }),
  );
}

export function candlesTable(body: CandlesBody): Table {
  return seriesTable(
    body.candles,
    () => body.series,
    instantColumns('time'),
    [text('field'), ...['open', 'high', 'low', 'close', 'volume'].map(number), FINAL],
    (c) => ({
      lead: instantCells(c.t),
      values: [body.field, c.open, c.high, c.low, c.close, c.volume, c.final],
    }),
  );
}

/**
 * One row per series over the window actually summed (`time` to `end`), with the times of its
 * first and last observation; a series without readings in it has n 0 and empty values.
 */
export function windowTable(body: WindowBody): Table {
  const span = [...instantCells(body.fromMs), ...instantCells(body.toMs)];
  return seriesTable(
    body.rows,
    (row) => row.series,
    [...instantColumns('time'), ...instantColumns('end')],
    [
      text('field'),
      ...['n', 'sum', 'avg', 'min', 'max', 'first'].map(number),
      { name: 'first_time_ms', kind: 'time' },
      number('last'),
      { name: 'last_time_ms', kind: 'time' },
      FINAL,
    ],
    (row) => ({
      lead: span,
      values: [
        body.field,
        row.n,
        row.sum,
        row.avg,
        row.min,
        row.max,
        row.first?.v ?? null,
        row.first?.t ?? null,
        row.last?.v ?? null,
        row.last?.t ?? null,
        row.final,
      ],
    }),
  );
}

type RawPoint = RawBody['points'][number];

/**
 * Every point in the range and its neighbours (`position`: before, in, after), one column per
 * numeric field the points carry (empty where a tick lacks it).
 */
export function rawTable(body: RawBody): Table {
  const points: [RawPoint, string][] = [
    ...(body.before ? [[body.before, 'before'] as [RawPoint, string]] : []),
    ...body.points.map((point): [RawPoint, string] => [point, 'in']),
    ...(body.after ? [[body.after, 'after'] as [RawPoint, string]] : []),
  ];
  const lead = [...instantColumns('time'), text('series')];
  const position = text('position');
  const taken = namesOf(lead, [position]);
  const tags = tagColumns([body.series], taken);
  const fields = namedColumns(
    points.flatMap(([point]) => Object.keys(point.v)),
    'number',
    taken,
    'field_',
  );
  const tagCells = tags.cells(tags.tagsOf(body.series));
  return {
    columns: [...lead, ...tags.columns, position, ...fields.columns],
    rows: points.map(([point, where]) => [
      ...instantCells(point.t),
      body.series,
      ...tagCells,
      where,
      ...fields.cells(point.v),
    ]),
  };
}

/** One row per series: its metric, tags as columns, its fields (comma-separated), newest bucket. */
export function seriesListTable(body: SeriesBody): Table {
  const lead = [text('series'), text('metric')];
  const rest = [text('fields'), ...instantColumns('last_slot')];
  const tags = namedColumns(
    body.series.flatMap((s) => Object.keys(s.tags)),
    'text',
    namesOf(lead, rest),
    'tag_',
  );
  return {
    columns: [...lead, ...tags.columns, ...rest],
    rows: body.series.map((s) => [
      s.series,
      s.metric,
      ...tags.cells(s.tags),
      s.fields.join(','),
      ...instantCells(s.lastSlotMs),
    ]),
  };
}
