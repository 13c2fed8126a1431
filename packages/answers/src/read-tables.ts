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
import type {
  CandlesRead,
  PointsRead,
  RawPoint,
  RawRead,
  SeriesListRead,
  StatusRead,
  WindowRead,
} from './reads.js';
import { statsColumns } from './stats-columns.js';

/*
 * Each read's answer as a tidy table (docs/analysts.md has the columns per read): the row's
 * time first, then the series and its tags as columns, then the values. What JSON says about the
 * read as a whole (examined, gaps, resolution, truncated) is not in these tables: a gap is rows
 * that are not there, never zeros. A value is `first`/`last` wherever it is the earliest or the
 * latest observation; `open`/`close` only in candles, where the trade's words are expected.
 */

const text = (name: string): Column => ({ name, kind: 'text' });
const number = (name: string): Column => ({ name, kind: 'number' });
const FINAL: Column = { name: 'final', kind: 'bool' };
const FILLED: Column = { name: 'filled', kind: 'bool' };

/**
 * A row's time columns: its start, and with a time zone its step's end (a local day lasts 23 to
 * 25 hours) and its start in the zone's wall time, with the offset (`local_time`).
 */
function stepLead(tz: string | undefined): Column[] {
  const lead = instantColumns('time');
  return tz === undefined ? lead : [...lead, ...instantColumns('end'), text('local_time')];
}

function stepCells(
  tz: string | undefined,
  row: { t: number; end?: number; local?: string },
): Cell[] {
  const lead = instantCells(row.t);
  return tz === undefined ? lead : [...lead, ...instantCells(row.end ?? null), row.local ?? null];
}

/** A table whose rows are of known series: lead columns, `series`, its tags, then `values`. */
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

/**
 * Points: the interval's start, n, sum, avg, min, max, first and last value (JSON's open, close),
 * then the stats (stats-columns.ts); with a zone its end and local time, with a fill whether the
 * row was filled (then n and sum are empty: no observation).
 */
export function pointsTable(read: PointsRead): Table {
  const filled = read.fill !== undefined;
  const values = [text('field'), ...['n', 'sum', 'avg', 'min', 'max', 'first', 'last'].map(number)];
  const stats = statsColumns(read.points, namesOf(values));
  return seriesTable(
    read.points,
    () => read.series,
    stepLead(read.tz),
    [...values, ...stats.columns, FINAL, ...(filled ? [FILLED] : [])],
    (p) => ({
      lead: stepCells(read.tz, p),
      values: [
        read.field,
        p.n,
        p.sum,
        p.avg,
        p.min,
        p.max,
        p.open,
        p.close,
        ...stats.cells(p),
        p.final,
        ...(filled ? [p.filled === true] : []),
      ],
    }),
  );
}

export function candlesTable(read: CandlesRead): Table {
  const values = [text('field'), ...['open', 'high', 'low', 'close', 'volume'].map(number)];
  const stats = statsColumns(read.candles, namesOf(values));
  return seriesTable(
    read.candles,
    () => read.series,
    stepLead(read.tz),
    [...values, ...stats.columns, FINAL],
    (c) => ({
      lead: stepCells(read.tz, c),
      values: [read.field, c.open, c.high, c.low, c.close, c.volume, ...stats.cells(c), c.final],
    }),
  );
}

/**
 * One row per series over the window actually summed (`time` to `end`), with the first and last
 * observation and their times, then the stats; a series without readings in it has n 0, its
 * coverage 0 and every other value empty (its sum too: nothing was summed).
 */
export function windowTable(read: WindowRead): Table {
  const local = read.tz === undefined ? [] : [read.local?.from ?? null, read.local?.to ?? null];
  const span = [...instantCells(read.fromMs), ...instantCells(read.toMs), ...local];
  const values = [
    text('field'),
    ...['n', 'sum', 'avg', 'min', 'max', 'first'].map(number),
    ...instantColumns('first_time'),
    number('last'),
    ...instantColumns('last_time'),
  ];
  const stats = statsColumns(read.rows, namesOf(values));
  return seriesTable(
    read.rows,
    (row) => row.series,
    [
      ...instantColumns('time'),
      ...instantColumns('end'),
      // With a zone: the window's bounds in its wall time.
      ...(read.tz === undefined ? [] : [text('local_time'), text('local_end')]),
    ],
    [...values, ...stats.columns, FINAL],
    (row) => ({
      lead: span,
      values: [
        read.field,
        row.n,
        row.n === 0 ? null : row.sum,
        row.avg,
        row.min,
        row.max,
        row.first?.v ?? null,
        ...instantCells(row.first?.t ?? null),
        row.last?.v ?? null,
        ...instantCells(row.last?.t ?? null),
        ...stats.cells(row),
        row.final,
      ],
    }),
  );
}

/**
 * Every point in the range and its neighbours (`position`: before, in, after), one column per
 * numeric field: the one asked for, or every field the points carry (empty where a tick lacks
 * it, never 0).
 */
export function rawTable(read: RawRead, field?: string): Table {
  const points: [RawPoint, string][] = [
    ...(read.before ? [[read.before, 'before'] as [RawPoint, string]] : []),
    ...read.points.map((point): [RawPoint, string] => [point, 'in']),
    ...(read.after ? [[read.after, 'after'] as [RawPoint, string]] : []),
  ];
  const lead = [...instantColumns('time'), text('series')];
  const position = text('position');
  const taken = namesOf(lead, [position]);
  const tags = tagColumns([read.series], taken);
  const fields = namedColumns(
    field === undefined ? points.flatMap(([point]) => Object.keys(point.v)) : [field],
    'number',
    taken,
    'field_',
  );
  const tagCells = tags.cells(tags.tagsOf(read.series));
  return {
    columns: [...lead, ...tags.columns, position, ...fields.columns],
    rows: points.map(([point, where]) => [
      ...instantCells(point.t),
      read.series,
      ...tagCells,
      where,
      ...fields.cells(point.v),
    ]),
  };
}

/** One row per series: its metric, tags as columns, its fields (comma-separated), newest bucket. */
export function seriesListTable(read: SeriesListRead): Table {
  const lead = [text('series'), text('metric')];
  const rest = [text('fields'), ...instantColumns('last_slot')];
  const tags = namedColumns(
    read.series.flatMap((s) => Object.keys(s.tags)),
    'text',
    namesOf(lead, rest),
    'tag_',
  );
  return {
    columns: [...lead, ...tags.columns, ...rest],
    rows: read.series.map((s) => [
      s.series,
      s.metric,
      ...tags.cells(s.tags),
      s.fields.join(','),
      ...instantCells(s.lastSlotMs),
    ]),
  };
}

/**
 * One row per level: the series' newest bucket there, the newest tick applied to it, whether
 * that bucket is final, and the level's finality watermark; empty where the level has none.
 */
export function statusTable(read: StatusRead): Table {
  return seriesTable(
    read.levels,
    () => read.series,
    [text('level')],
    [
      ...instantColumns('latest_slot'),
      ...instantColumns('newest_tick'),
      { name: 'latest_final', kind: 'bool' },
      ...instantColumns('final_before'),
    ],
    (level) => ({
      lead: [level.level],
      values: [
        ...instantCells(level.latestSlotMs),
        ...instantCells(level.freshnessMs),
        level.latestSlotMs === null ? null : level.latestFinal,
        ...instantCells(level.finalBefore),
      ],
    }),
  );
}
