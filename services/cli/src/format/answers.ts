import {
  rawTable,
  seriesListTable,
  statusTable,
  type Cell,
  windowTable,
} from '@tickertape/answers';
import type {
  MetricWindowResult,
  RawPointsResult,
  SeriesResult,
  StatusResult,
  WindowResult,
} from '@tickertape/query';
import { plural } from '../plural.js';
import type { QueryAnswer } from './render.js';
import { formatSpan, isoTime } from './time.js';
import { examinedLine, orEmpty } from './range-answers.js';
import { statsGrid } from './stats.js';

export { candlesAnswer, describeResolution, pointsAnswer } from './range-answers.js';

const tagText = (tags: Readonly<Record<string, string>>) =>
  Object.keys(tags)
    .sort()
    .map((key) => `${key}=${tags[key]}`)
    .join(',');

export function seriesAnswer(
  result: SeriesResult,
  range: { fromMs: number; toMs: number },
): QueryAnswer {
  const rows = result.series.map((s): Cell[] => [
    s.series,
    s.metric,
    tagText(s.tags),
    s.fields.join(','),
    isoTime(s.lastSlotMs),
  ]);
  return {
    answer: { json: () => result, table: () => seriesListTable(result) },
    table: { header: ['series', 'metric', 'tags', 'fields', 'last bucket'], rows },
    notes: [
      `${plural(result.series.length, 'series', 'series')} with data from ${isoTime(range.fromMs)} ` +
        `to ${isoTime(range.toMs)} (found in ${result.level} buckets)`,
      ...(result.truncated ? ['more series match: raise --limit, or narrow --metric/--tag'] : []),
      examinedLine(result.examined),
    ],
  };
}

/**
 * The window's result; with --metric, `selected` says how the series were found (in the
 * window's own buckets, so `examined` needs no discovery added), as the API's answer does.
 */
export function windowAnswer(
  result: (WindowResult | MetricWindowResult) & {
    tz?: string;
    local?: { from: string; to: string };
  },
): QueryAnswer {
  const empty = result.rows.filter((row) => row.n === 0).length;
  const selected = 'selected' in result ? result.selected : undefined;
  const stats = statsGrid(result.rows);
  return {
    answer: { json: () => result, table: () => windowTable(result) },
    table: {
      header: ['series', 'n', 'avg', 'min', 'max', 'first', 'last', ...stats.header, 'final'],
      rows: result.rows.map((row) => [
        row.series,
        row.n,
        row.avg,
        row.min,
        row.max,
        row.first?.v ?? null,
        row.last?.v ?? null,
        ...stats.cells(row),
        row.final,
      ]),
    },
    notes: [
      `${result.field} from ${isoTime(result.fromMs)} to ${isoTime(result.toMs)} ` +
        ('local' in result && result.local !== undefined
          ? `(${result.tz}: ${result.local.from} to ${result.local.to}) `
          : '') +
        `(${formatSpan(result.toMs - result.fromMs)}), summed from ` +
        `${plural(result.pieces.length, 'bucket part')} per series`,
      ...(selected === undefined
        ? []
        : [
            `${plural(selected.series, 'series', 'series')} of ${selected.metric}` +
              `${Object.keys(selected.tags).length > 0 ? ` (${tagText(selected.tags)})` : ''} ` +
              `found in the window's buckets` +
              (selected.truncated ? '; more match: raise --limit' : ''),
          ]),
      ...(empty > 0
        ? [
            `${empty} of ${plural(result.rows.length, 'series', 'series')} without data in the window: empty cells`,
          ]
        : []),
      ...stats.notes,
      examinedLine(result.examined),
    ],
  };
}

export function statusAnswer(result: StatusResult): QueryAnswer {
  const rows = result.levels.map((level): Cell[] => [
    level.level,
    orEmpty(level.latestSlotMs),
    orEmpty(level.freshnessMs),
    level.latestSlotMs === null ? null : level.latestFinal,
    orEmpty(level.finalBefore),
  ]);
  return {
    answer: { json: () => result, table: () => statusTable(result) },
    table: {
      header: ['level', 'latest bucket', 'newest tick', 'latest final', 'final before'],
      rows,
    },
    notes: [
      result.levels.every((level) => level.latestSlotMs === null)
        ? `${result.series}: no bucket at any level (unknown series, or older than the partitions searched)`
        : `${result.series}: newest bucket per level; final = the scheduler's watermark has passed it`,
      examinedLine(result.examined),
    ],
  };
}

type RawPoint = RawPointsResult['points'][number];

/**
 * The field columns of raw points: the one asked for, or every field any point carries, sorted,
 * so a tick without one of them shows an empty cell (never 0) under it.
 */
function rawFields(result: RawPointsResult, field: string | undefined): string[] {
  if (field !== undefined) return [field];
  const names = new Set<string>();
  for (const point of [result.before, ...result.points, result.after])
    for (const name of Object.keys(point?.v ?? {})) names.add(name);
  return [...names].sort();
}

/**
 * Raw points of one series, in time order, between the nearest stored point before the range
 * and the nearest one at or after its end — the two a chart draws its line to the edges with,
 * marked as such so nobody takes them for points of the range: the `position` column says
 * before/after (and, in CSV, `in` for the range's own points).
 */
export function rawAnswer(result: RawPointsResult, field?: string): QueryAnswer {
  const fields = rawFields(result, field);
  const rowOf = (point: RawPoint, position: string | null): Cell[] => [
    isoTime(point.t),
    ...fields.map((name) => point.v[name] ?? null),
    position,
  ];
  const rows: Cell[][] = [
    ...(result.before === null ? [] : [rowOf(result.before, 'before')]),
    ...result.points.map((point) => rowOf(point, null)),
    ...(result.after === null ? [] : [rowOf(result.after, 'after')]),
  ];
  const header = ['time', ...fields, 'position'];
  const neighbour = (point: RawPoint | null, side: string, none: string) =>
    point === null ? none : `the nearest ${side} at ${isoTime(point.t)}`;
  return {
    answer: { json: () => result, table: () => rawTable(result, field) },
    table: { header, rows },
    notes: [
      `${result.series}${field === undefined ? '' : ` ${field}`} from ${isoTime(result.fromMs)} ` +
        `to ${isoTime(result.toMs)}: raw points from the segment store`,
      `${plural(result.points.length, 'point')}; ` +
        `${neighbour(result.before, 'before', 'no point kept before')}, ` +
        `${neighbour(result.after, 'after', 'none after yet')}`,
      examinedLine(result.examined),
    ],
  };
}
