// The API's answers as lightweight-charts entries: no DOM, no chart, so tested on their own.

import type {
  CandlestickData,
  HistogramData,
  LineData,
  Time,
  UTCTimestamp,
  WhitespaceData,
} from 'lightweight-charts';
import type { CandlesResponse, Gap, PointsResponse, RawPoint, RawResponse } from './api-types.js';
import { SECOND } from './format.js';

export const COLORS = {
  line: '#2563eb',
  lineOpen: '#f59e0b',
  up: '#16a34a',
  down: '#dc2626',
  volume: 'rgba(100, 116, 139, 0.35)',
  gapBand: 'rgba(148, 163, 184, 0.16)',
  grid: '#eef0f4',
  text: '#334155',
  border: '#d8dde6',
};

/** A raw tick's value as drawn, and where it lies against the range asked. */
export interface RawEntry {
  t: number;
  value: number;
  field: string;
  position: 'before' | 'in' | 'after';
}

type Blank = WhitespaceData<UTCTimestamp>;

export const toChartTime = (ms: number) => Math.floor(ms / SECOND) as UTCTimestamp;

export const fromChartTime = (time: Time) => (typeof time === 'number' ? time * SECOND : NaN);

/**
 * Raw points keep their milliseconds: lightweight-charts takes fractional seconds, so ticks in
 * the same second stay apart (rounding back on the way out undoes the float division).
 */
export const toRawChartTime = (ms: number) => (ms / SECOND) as UTCTimestamp;

export const byTimeAsc = <T extends { time: UTCTimestamp }>(rows: T[]): T[] =>
  rows.sort((a, b) => a.time - b.time);

/**
 * Whitespace (time only) at every step inside each gap, so the line breaks and the gap takes
 * the width its duration would: lightweight-charts spaces entries evenly, not by time.
 * `taken` holds the chart times that hold data, and gets the blanks' times.
 */
export function whitespaceFor(gaps: readonly Gap[], stepMs: number, taken: Set<number>): Blank[] {
  const blanks: Blank[] = [];
  for (const gap of gaps) {
    for (let t = Math.floor(gap.from / stepMs) * stepMs; t < gap.to; t += stepMs) {
      const time = toChartTime(t);
      if (taken.has(time)) continue;
      taken.add(time);
      blanks.push({ time });
    }
  }
  return blanks;
}

export interface LineEntries {
  /** One per point, in the answer's order. */
  rows: LineData<UTCTimestamp>[];
  /** Points with a gap on both sides: no segment shows them, so each gets a dot. */
  lone: LineData<UTCTimestamp>[];
  blanks: Blank[];
}

/**
 * The average as a line, broken at every gap. lightweight-charts 5.2 joins a line across
 * whitespace, and strokes the segment from a point to the next in the colour of the first: so
 * the last point before a gap gets a transparent colour, and the segment over the gap vanishes
 * (whitespace still gives the gap its width). Segments from points not final yet are amber.
 */
export function lineEntries(result: PointsResponse): LineEntries {
  const { points } = result;
  const { stepMs } = result.resolution;
  const gapAfter = (i: number) => {
    const here = points[i];
    const next = points[i + 1];
    return here !== undefined && next !== undefined && next.t - here.t > stepMs;
  };
  const gapBefore = (i: number) => i === 0 || gapAfter(i - 1);
  const colourOf = (p: { final: boolean }) => (p.final ? COLORS.line : COLORS.lineOpen);
  const rows = points.map((p, i) => ({
    time: toChartTime(p.t),
    value: p.avg,
    color: gapAfter(i) ? 'transparent' : colourOf(p),
  }));
  const lone = points
    .filter((_, i) => gapBefore(i) && (i === points.length - 1 || gapAfter(i)))
    .map((p) => ({ time: toChartTime(p.t), value: p.avg, color: colourOf(p) }));
  const taken = new Set<number>(points.map((p) => toChartTime(p.t)));
  return { rows, lone, blanks: whitespaceFor(result.gaps, stepMs, taken) };
}

export interface CandleEntries {
  rows: CandlestickData<UTCTimestamp>[];
  blanks: Blank[];
  /** Ticks per candle, where the API knows them (not at second width). */
  volumes: HistogramData<UTCTimestamp>[];
}

export function candleEntries(result: CandlesResponse): CandleEntries {
  const taken = new Set<number>(result.candles.map((c) => toChartTime(c.t)));
  // Candles not final yet are hollow: outline and wick in the colour, body empty.
  const rows = result.candles.map((c) => ({
    time: toChartTime(c.t),
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    ...(c.final ? {} : { color: 'rgba(255, 255, 255, 0)' }),
  }));
  const blanks = whitespaceFor(result.gaps, result.resolution.stepMs, taken);
  const volumes = result.candles.flatMap((c) =>
    c.volume === null
      ? []
      : [
          {
            time: toChartTime(c.t),
            value: c.volume,
            color: c.close >= c.open ? 'rgba(22, 163, 74, 0.3)' : 'rgba(220, 38, 38, 0.3)',
          },
        ],
  );
  return { rows, blanks, volumes };
}

export interface RawEntries {
  rows: LineData<UTCTimestamp>[];
  /** Time-only entries at the range's ends (where no tick sits exactly). */
  edges: Blank[];
  /** The ticks drawn, by time (ms). */
  byMs: Map<number, RawEntry>;
  /** Ticks drawn inside the range. */
  drawn: number;
  /** Ticks drawn outside it: the nearest before and at or after its end. */
  neighbours: number;
}

/**
 * Raw ticks as a line with a dot on each, from the nearest tick before the range to the nearest
 * at or after its end. Time-only entries at the range's two ends pin the visible range to it
 * exactly, so those two neighbours sit just outside the chart and the line runs on to both
 * edges instead of stopping at the first and last tick inside (the line joins across
 * whitespace). A tick without the field is left out: no value, no dot, never a 0.
 */
export function rawEntries(result: RawResponse, field: string): RawEntries {
  const entries: RawEntry[] = [];
  const add = (point: RawPoint | null, position: RawEntry['position']) => {
    const value = point?.v[field];
    if (point && typeof value === 'number') entries.push({ t: point.t, value, field, position });
  };
  add(result.before, 'before');
  for (const point of result.points) add(point, 'in');
  add(result.after, 'after');
  // Two ticks of one series at the same millisecond: the later one is what the series said.
  const byMs = new Map(entries.map((e) => [e.t, e]));
  const kept = [...byMs.values()];
  const rows = kept.map((e) => ({ time: toRawChartTime(e.t), value: e.value }));
  const edges = [result.fromMs, result.toMs]
    .filter((ms) => !byMs.has(ms))
    .map((ms) => ({ time: toRawChartTime(ms) }));
  return {
    rows,
    edges,
    byMs,
    drawn: kept.filter((e) => e.position === 'in').length,
    neighbours: kept.filter((e) => e.position !== 'in').length,
  };
}
