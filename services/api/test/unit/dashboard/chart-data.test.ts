import { describe, expect, it } from '@jest/globals';
import type {
  Candle,
  CandlesResponse,
  Gap,
  Point,
  PointsResponse,
  RawResponse,
} from '../../../dashboard/src/api-types.js';
import {
  COLORS,
  candleEntries,
  lineEntries,
  rawEntries,
  whitespaceFor,
} from '../../../dashboard/src/chart-data.js';

const S = 1000;
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const sec = (ms: number) => ms / S;

const point = (t: number, avg: number, final = true): Point => ({
  t,
  n: 1,
  sum: avg,
  min: avg,
  max: avg,
  open: avg,
  close: avg,
  avg,
  final,
});

const range = (gaps: Gap[], stepMs: number) => ({
  series: 's',
  field: 'f',
  fromMs: T0,
  toMs: T0 + 60 * S,
  resolution: { stepMs, source: { level: 'minute', detail: 'sub' } },
  gaps,
  examined: 1,
});

describe("the dashboard's chart entries", () => {
  it('puts whitespace at every step of a gap not holding data, once', () => {
    const taken = new Set([sec(T0 + 20 * S)]);
    const blanks = whitespaceFor(
      [
        { from: T0 + 10 * S, to: T0 + 30 * S },
        { from: T0 + 25 * S, to: T0 + 35 * S },
      ],
      10 * S,
      taken,
    );
    expect(blanks.map((b) => b.time)).toEqual([sec(T0 + 10 * S), sec(T0 + 30 * S)]);
    expect(taken.size).toBe(3);
  });

  it('breaks the line at a gap: the point before it transparent, lone points dotted, open ones amber', () => {
    const points = [
      point(T0, 1),
      point(T0 + 10 * S, 2),
      // gap [20 s, 40 s)
      point(T0 + 40 * S, 3, false),
      // gap [50 s, 60 s)
      point(T0 + 60 * S, 4, false),
    ];
    const result: PointsResponse = {
      ...range(
        [
          { from: T0 + 20 * S, to: T0 + 40 * S },
          { from: T0 + 50 * S, to: T0 + 60 * S },
        ],
        10 * S,
      ),
      points,
    };
    const { rows, lone, blanks } = lineEntries(result);
    expect(rows.map((r) => [r.time, r.value, r.color])).toEqual([
      [sec(T0), 1, COLORS.line],
      [sec(T0 + 10 * S), 2, 'transparent'],
      [sec(T0 + 40 * S), 3, 'transparent'],
      [sec(T0 + 60 * S), 4, COLORS.lineOpen],
    ]);
    // 40 s has gaps on both sides; 60 s is last after a gap.
    expect(lone.map((r) => [r.time, r.color])).toEqual([
      [sec(T0 + 40 * S), COLORS.lineOpen],
      [sec(T0 + 60 * S), COLORS.lineOpen],
    ]);
    expect(blanks.map((b) => b.time)).toEqual([
      sec(T0 + 20 * S),
      sec(T0 + 30 * S),
      sec(T0 + 50 * S),
    ]);
  });

  it('draws open candles hollow and counts ticks only where known', () => {
    const candle = (
      t: number,
      open: number,
      close: number,
      volume: number | null,
      final: boolean,
    ) =>
      ({
        t,
        open,
        high: Math.max(open, close),
        low: Math.min(open, close),
        close,
        volume,
        final,
      }) satisfies Candle;
    const result: CandlesResponse = {
      ...range([], 10 * S),
      candles: [candle(T0, 1, 2, 5, true), candle(T0 + 10 * S, 2, 1, null, false)],
    };
    const { rows, blanks, volumes } = candleEntries(result);
    expect(rows[0]).not.toHaveProperty('color');
    expect(rows[1]).toMatchObject({ color: 'rgba(255, 255, 255, 0)' });
    expect(blanks).toEqual([]);
    expect(volumes).toEqual([{ time: sec(T0), value: 5, color: 'rgba(22, 163, 74, 0.3)' }]);
  });

  it('joins raw ticks to their neighbours, keeps milliseconds, drops ticks without the field', () => {
    const result: RawResponse = {
      series: 's',
      fromMs: T0,
      toMs: T0 + 60 * S,
      before: { t: T0 - 5 * S, v: { f: 1 } },
      points: [
        { t: T0 + 250, v: { f: 2 } },
        { t: T0 + 750, v: { other: 9 } },
        { t: T0 + 30 * S, v: { f: 3 } },
        // the same millisecond again: the later tick is what the series said
        { t: T0 + 30 * S, v: { f: 4 } },
      ],
      after: { t: T0 + 60 * S, v: { f: 5 } },
      examined: 2,
    };
    const { rows, edges, byMs, drawn, neighbours } = rawEntries(result, 'f');
    expect(rows).toEqual([
      { time: sec(T0 - 5 * S), value: 1 },
      { time: sec(T0 + 250), value: 2 },
      { time: sec(T0 + 30 * S), value: 4 },
      { time: sec(T0 + 60 * S), value: 5 },
    ]);
    // The start pins the visible range; the end holds the neighbour after it already.
    expect(edges).toEqual([{ time: sec(T0) }]);
    expect(byMs.get(T0 + 250)).toEqual({ t: T0 + 250, value: 2, field: 'f', position: 'in' });
    expect({ drawn, neighbours }).toEqual({ drawn: 2, neighbours: 2 });
  });
});
