import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  fillPoints,
  fillRange,
  type FillMode,
  type AnsweredPoint,
  type RangeResult,
  type SteppedPoint,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const M = 60_000;
const H = 60 * M;
const D = 24 * H;

const p = (t: number, v: number, final = true): AnsweredPoint => ({
  variance: 0,
  stddev: 0,
  coverage: { spread: 1 },
  t,
  n: 1,
  sum: v,
  min: v,
  max: v,
  open: v,
  close: v,
  avg: v,
  final,
});

const step = (start: number, width = 10) => ({ start, end: start + width });
const brief = (points: SteppedPoint[]) =>
  points.map((point) => [point.t, point.avg, point.filled] as const);

describe('fillPoints', () => {
  const points = [p(10, 4), p(40, 10)];
  const missing = [step(0), step(20), step(30), step(50)];

  it.each<[FillMode, (readonly [number, number | null, boolean])[]]>([
    [
      'null',
      [
        [0, null, true],
        [10, 4, false],
        [20, null, true],
        [30, null, true],
        [40, 10, false],
        [50, null, true],
      ],
    ],
    [
      'previous',
      [
        [10, 4, false],
        [20, 4, true],
        [30, 4, true],
        [40, 10, false],
        [50, 10, true],
      ],
    ],
    [
      'linear',
      [
        [10, 4, false],
        [20, 6, true],
        [30, 8, true],
        [40, 10, false],
      ],
    ],
  ])('%s', (mode, expected) => {
    expect(brief(fillPoints(points, missing, mode, true))).toEqual(expected);
  });

  it('a filled step has no observation: n and sum null, never 0', () => {
    const [filled] = fillPoints([p(0, 3)], [step(10)], 'previous', true);
    expect(fillPoints([p(0, 3)], [step(10)], 'previous', true)[1]).toEqual({
      t: 10,
      n: null,
      sum: null,
      avg: 3,
      min: 3,
      max: 3,
      open: 3,
      close: 3,
      variance: null,
      stddev: null,
      coverage: { spread: 0 },
      final: true,
      filled: true,
    });
    expect(filled).toMatchObject({ t: 0, filled: false, n: 1 });
  });

  it('takes finality from the next point with data, else from the range', () => {
    const filled = fillPoints(
      [p(0, 1, true), p(20, 1, false)],
      [step(10), step(30)],
      'null',
      false,
    );
    expect(filled.map((point) => [point.t, point.final])).toEqual([
      [0, true],
      [10, false],
      [20, false],
      [30, false],
    ]);
  });

  it('adds a local step its end and local time', () => {
    const [filled] = fillPoints([], [step(0)], 'null', true, (s) => ({ end: s.end, local: 'x' }));
    expect(filled).toMatchObject({ t: 0, end: 10, local: 'x', filled: true });
  });
});

/** Points on a grid of 10 with holes: `present[i]` says whether step i has data. */
const series = fc
  .array(fc.tuple(fc.boolean(), fc.integer({ min: -1000, max: 1000 })), {
    minLength: 1,
    maxLength: 40,
  })
  .map((cells) => ({
    points: cells.flatMap(([present, v], i) => (present ? [p(i * 10, v)] : [])),
    missing: cells.flatMap(([present], i) => (present ? [] : [step(i * 10)])),
  }));

describe('fill properties', () => {
  it('null: every step answered once, in order; data untouched', () => {
    fc.assert(
      fc.property(series, ({ points, missing }) => {
        const out = fillPoints(points, missing, 'null', true);
        expect(out.map((q) => q.t)).toEqual(
          [...points.map((q) => q.t), ...missing.map((s) => s.start)].sort((a, b) => a - b),
        );
        expect(out.filter((q) => !q.filled)).toEqual(points.map((q) => ({ ...q, filled: false })));
        for (const q of out.filter((q) => q.filled))
          expect([q.avg, q.n, q.sum]).toEqual([null, null, null]);
      }),
    );
  });

  it('previous: each filled step carries the last point before it; none before the first', () => {
    fc.assert(
      fc.property(series, ({ points, missing }) => {
        const out = fillPoints(points, missing, 'previous', true);
        const first = points[0]?.t ?? Infinity;
        expect(out.filter((q) => q.filled).length).toBe(
          missing.filter((s) => s.start > first).length,
        );
        for (const q of out.filter((q) => q.filled)) {
          const before = points.filter((x) => x.t < q.t).at(-1)!;
          expect(q).toMatchObject({ avg: before.avg, min: before.min, close: before.close });
        }
      }),
    );
  });

  it('linear: filled values lie on the line between the neighbours; no extrapolation', () => {
    fc.assert(
      fc.property(series, ({ points, missing }) => {
        const out = fillPoints(points, missing, 'linear', true);
        const first = points[0]?.t ?? Infinity;
        const last = points.at(-1)?.t ?? -Infinity;
        expect(out.filter((q) => q.filled).length).toBe(
          missing.filter((s) => s.start > first && s.start < last).length,
        );
        for (const q of out.filter((q) => q.filled)) {
          const a = points.filter((x) => x.t < q.t).at(-1)!;
          const b = points.find((x) => x.t > q.t)!;
          const expected = a.avg + ((b.avg - a.avg) * (q.t - a.t)) / (b.t - a.t);
          expect(q.avg).toBeCloseTo(expected, 9);
          expect(q.avg!).toBeGreaterThanOrEqual(Math.min(a.avg, b.avg) - 1e-9);
          expect(q.avg!).toBeLessThanOrEqual(Math.max(a.avg, b.avg) + 1e-9);
        }
      }),
    );
  });
});

describe('fillRange', () => {
  const result = (over: Partial<RangeResult>): RangeResult => ({
    series: 'speed|sensor=s1',
    field: 'speed',
    fromMs: 0,
    toMs: 6 * H,
    resolution: { stepMs: H, source: { level: 'hour', detail: 'slot' } },
    points: [p(H, 5), p(4 * H, 8)],
    gaps: [],
    examined: 2,
    openLevels: [],
    ...over,
  });

  it('fills the UTC steps up to now, not the future; gaps stay', () => {
    const filled = fillRange(result({ gaps: [{ from: 0, to: H }] }), 'null', 5 * H + 1);
    expect(filled.fill).toBe('null');
    expect(filled.gaps).toEqual([{ from: 0, to: H }]);
    expect(filled.points.map((q) => [q.t / H, q.filled])).toEqual([
      [0, true],
      [1, false],
      [2, true],
      [3, true],
      [4, false],
      [5, true],
    ]);
  });

  it('fills local days with their UTC bounds and local times', () => {
    const from = at('2026-03-07T08:00:00Z');
    const to = at('2026-03-10T07:00:00Z');
    const filled = fillRange(
      result({
        fromMs: from,
        toMs: to,
        tz: 'America/Los_Angeles',
        resolution: { stepMs: D, source: { level: 'day', detail: 'slot' } },
        points: [p(from, 1), p(at('2026-03-09T07:00:00Z'), 3)],
      }),
      'linear',
      to,
    );
    expect(filled.points[1]).toMatchObject({
      t: at('2026-03-08T08:00:00Z'),
      end: at('2026-03-09T07:00:00Z'),
      local: '2026-03-08T00:00:00.000-08:00',
      filled: true,
    });
    // Interpolated in time: the 23-hour day's start is 24/47 of the way.
    expect(filled.points[1]!.avg).toBeCloseTo(1 + (2 * 24) / 47, 12);
  });
});
