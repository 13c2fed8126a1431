import { candlesTable, pointsTable, type Cell } from '@tickertape/answers';
import { LEVELS, LEVEL_SPECS, type Level } from '@tickertape/buckets';
import {
  localIso,
  zoneRules,
  type CandleResult,
  type FilledRangeResult,
  type Gap,
  type RangeResult,
  type Resolution,
} from '@tickertape/query';
import { plural } from '../plural.js';
import type { QueryAnswer } from './render.js';
import { statsGrid } from './stats.js';
import { formatSpan, isoTime } from './time.js';

/* The answers of the range reads (points, candles): a resolution line, gaps, one row per slot. */

export const orEmpty = (ms: number | null): Cell => (ms === null ? null : isoTime(ms));

export const examinedLine = (examined: number) => `examined ${plural(examined, 'document')}`;

/** What a level's sub-slot is called: the level whose slot it is (an hour's minutes), or a second. */
const subUnit = (level: Level) =>
  LEVELS.find((finer) => LEVEL_SPECS[finer].slotMs === LEVEL_SPECS[level].subSlotMs) ?? 'second';

/** `5m points from the minutes of hour buckets`: the width, and which documents were read. */
export function describeResolution(resolution: Resolution): string {
  const { level, detail } = resolution.source;
  const parts = detail === 'sub' ? `the ${subUnit(level)}s of ` : '';
  return `${formatSpan(resolution.stepMs)} points from ${parts}${level} buckets`;
}

function rangeLine(result: Omit<RangeResult, 'points'>): string {
  return (
    `${result.series} ${result.field} from ${isoTime(result.fromMs)} to ${isoTime(result.toMs)}: ` +
    (result.tz === undefined
      ? describeResolution(result.resolution)
      : `${formatSpan(result.resolution.stepMs)} steps of ${result.tz}'s local calendar (time: local start; end: UTC)`)
  );
}

/** A row's time for people: its local start with a zone (each row's UTC bounds are in csv/json). */
const rowTime = (row: { t: number; local?: string }) => row.local ?? isoTime(row.t);

/** Gap rows' times in the answer's zone, as its rows' are. */
function timeIn(tz: string | undefined): (ms: number) => string {
  if (tz === undefined) return isoTime;
  const rules = zoneRules(tz);
  return (ms) => localIso(ms, rules.offsetAt(ms));
}

/** Gap rows for the gaps no filled row covers. */
function unfilledGaps(result: RangeResult | FilledRangeResult): Gap[] {
  if (!('fill' in result)) return result.gaps;
  const filled = result.points.filter((p) => p.filled);
  const step = result.resolution.stepMs;
  return result.gaps.filter(
    (gap) => !filled.some((p) => p.t < gap.to && (p.end ?? p.t + step) > gap.from),
  );
}

/** Gaps end at unaligned range edges (`--from -1h`): seconds are precise enough to read. */
const roundSpan = (ms: number) => (ms < 1000 ? ms : Math.round(ms / 1000) * 1000);

function gapsLine(gaps: readonly Gap[]): string {
  const missing = gaps.reduce((total, gap) => total + gap.to - gap.from, 0);
  return gaps.length === 0
    ? 'no gaps'
    : `${plural(gaps.length, 'gap')} (no data, not zero) over ${formatSpan(roundSpan(missing))}`;
}

/**
 * Data rows and gap rows in time order. A gap row has the gap's start, empty value cells and a
 * note, so a reader of the table sees a hole where a chart would break the line, not a zero.
 */
function withGapRows(
  rows: readonly { t: number; cells: Cell[] }[],
  gaps: readonly Gap[],
  width: number,
  timeOf: (ms: number) => string = isoTime,
): Cell[][] {
  const gapRows = gaps.map((gap) => ({
    t: gap.from,
    cells: [
      timeOf(gap.from),
      ...Array<Cell>(width).fill(null),
      `no data until ${timeOf(gap.to)} (${formatSpan(roundSpan(gap.to - gap.from))})`,
    ],
  }));
  return [...rows.map((row) => ({ ...row, cells: [...row.cells, null] })), ...gapRows]
    .sort((a, b) => a.t - b.t)
    .map((row) => row.cells);
}

/**
 * The interval's first and last value are `first` and `last`, as in every table (JSON: open,
 * close). With a fill, a `filled` column says which rows are not data.
 */
export function pointsAnswer(result: RangeResult | FilledRangeResult): QueryAnswer {
  const fill = 'fill' in result ? result.fill : undefined;
  const stats = statsGrid(result.points);
  const values = result.points.map((p) => ({
    t: p.t,
    cells: [
      rowTime(p),
      p.n,
      p.avg,
      p.min,
      p.max,
      p.open,
      p.close,
      ...stats.cells(p),
      p.final,
      ...(fill === undefined ? [] : ['filled' in p && p.filled]),
    ] as Cell[],
  }));
  const filled = result.points.filter((p) => 'filled' in p && p.filled).length;
  return {
    answer: { json: () => result, table: () => pointsTable(result) },
    table: {
      header: [
        'time',
        'n',
        'avg',
        'min',
        'max',
        'first',
        'last',
        ...stats.header,
        'final',
        ...(fill === undefined ? [] : ['filled']),
        'gap',
      ],
      rows: withGapRows(
        values,
        unfilledGaps(result),
        7 + stats.header.length + (fill === undefined ? 0 : 1),
        timeIn(result.tz),
      ),
    },
    notes: [
      rangeLine(result),
      `${plural(result.points.length - filled, 'point')}, ${gapsLine(result.gaps)}` +
        (fill === undefined ? '' : `; ${filled} filled (${fill}), not data`),
      ...stats.notes,
      examinedLine(result.examined),
    ],
  };
}

export function candlesAnswer(result: CandleResult): QueryAnswer {
  const stats = statsGrid(result.candles.map((c) => ({ ...c, n: c.volume })));
  const cellsOf = (c: CandleResult['candles'][number]): Cell[] => [
    rowTime(c),
    c.open,
    c.high,
    c.low,
    c.close,
    c.volume,
    ...stats.cells(c),
    c.final,
  ];
  return {
    answer: { json: () => result, table: () => candlesTable(result) },
    table: {
      header: ['time', 'open', 'high', 'low', 'close', 'volume', ...stats.header, 'final', 'gap'],
      rows: withGapRows(
        result.candles.map((c) => ({ t: c.t, cells: cellsOf(c) })),
        result.gaps,
        6 + stats.header.length,
        timeIn(result.tz),
      ),
    },
    notes: [
      rangeLine(result),
      `${plural(result.candles.length, 'candle')}, ${gapsLine(result.gaps)}`,
      ...stats.notes,
      examinedLine(result.examined),
    ],
  };
}
