import { candlesTable, pointsTable, type Cell } from '@tickertape/answers';
import { LEVELS, LEVEL_SPECS, type Level } from '@tickertape/buckets';
import type { CandleResult, Gap, RangeResult, Resolution } from '@tickertape/query';
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
    describeResolution(result.resolution)
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
): Cell[][] {
  const gapRows = gaps.map((gap) => ({
    t: gap.from,
    cells: [
      isoTime(gap.from),
      ...Array<Cell>(width).fill(null),
      `no data until ${isoTime(gap.to)} (${formatSpan(roundSpan(gap.to - gap.from))})`,
    ],
  }));
  return [...rows.map((row) => ({ ...row, cells: [...row.cells, null] })), ...gapRows]
    .sort((a, b) => a.t - b.t)
    .map((row) => row.cells);
}

/** The interval's first and last value are `first` and `last`, as in every table (JSON: open, close). */
export function pointsAnswer(result: RangeResult): QueryAnswer {
  const stats = statsGrid(result.points);
  const values = result.points.map((p) => ({
    t: p.t,
    cells: [
      isoTime(p.t),
      p.n,
      p.avg,
      p.min,
      p.max,
      p.open,
      p.close,
      ...stats.cells(p),
      p.final,
    ] as Cell[],
  }));
  return {
    answer: { json: () => result, table: () => pointsTable(result) },
    table: {
      header: ['time', 'n', 'avg', 'min', 'max', 'first', 'last', ...stats.header, 'final', 'gap'],
      rows: withGapRows(values, result.gaps, 7 + stats.header.length),
    },
    notes: [
      rangeLine(result),
      `${plural(result.points.length, 'point')}, ${gapsLine(result.gaps)}`,
      ...stats.notes,
      examinedLine(result.examined),
    ],
  };
}

export function candlesAnswer(result: CandleResult): QueryAnswer {
  const stats = statsGrid(result.candles.map((c) => ({ ...c, n: c.volume })));
  const cellsOf = (c: CandleResult['candles'][number]): Cell[] => [
    isoTime(c.t),
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
