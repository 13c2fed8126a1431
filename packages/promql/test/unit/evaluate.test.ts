import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  evaluate,
  instantData,
  matchesAll,
  parsePromQL,
  rangeData,
  type Matcher,
  type SampleSource,
  type SeriesPoints,
  type WidthPoint,
} from '../../src/index.js';

interface Tick {
  t: number;
  v: number;
}

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 26, 10, 0);

/** Points of `width` from raw ticks, as buckets would keep them (the last tick by time). */
function pointsOf(ticks: readonly Tick[], width: number, from: number, to: number): WidthPoint[] {
  const byStart = new Map<number, Tick[]>();
  for (const tick of ticks) {
    if (tick.t < from || tick.t >= to) continue;
    const start = Math.floor(tick.t / width) * width;
    byStart.set(start, [...(byStart.get(start) ?? []), tick]);
  }
  return [...byStart.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, run]) => ({
      t,
      n: run.length,
      sum: run.reduce((s, x) => s + x.v, 0),
      min: Math.min(...run.map((x) => x.v)),
      max: Math.max(...run.map((x) => x.v)),
      first: [...run].sort((a, b) => a.t - b.t)[0]!.v,
      last: [...run].sort((a, b) => a.t - b.t).at(-1)!.v,
    }));
}

/** An in-memory source over raw ticks per label set: the evaluator's only dependency. */
function memorySource(data: { labels: Record<string, string>; ticks: Tick[] }[]): SampleSource & {
  reads: number;
} {
  const source = {
    reads: 0,
    widths: [86_400_000, 3_600_000, MINUTE, 1000],
    read(matchers: readonly Matcher[], request: { fromMs: number; toMs: number; widthMs: number }) {
      source.reads += 1;
      const series: SeriesPoints[] = data
        .filter(({ labels }) => matchesAll(matchers, labels))
        .map(({ labels, ticks }) => ({
          labels,
          points: pointsOf(ticks, request.widthMs, request.fromMs, request.toMs),
        }));
      return Promise.resolve({ series, openLevels: ['hour'] });
    },
  };
  return source;
}

/** The reference: each function over the raw ticks in [end − range, end). */
function reference(fn: string, ticks: readonly Tick[], end: number, range: number): number | null {
  const inside = ticks.filter((x) => x.t >= end - range && x.t < end).sort((a, b) => a.t - b.t);
  if (inside.length === 0) return null;
  const values = inside.map((x) => x.v);
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    count_over_time: values.length,
    sum_over_time: sum,
    avg_over_time: sum / values.length,
    min_over_time: Math.min(...values),
    max_over_time: Math.max(...values),
    last_over_time: values.at(-1)!,
    first_over_time: values[0]!,
  }[fn]!;
}

const close = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

describe('evaluate', () => {
  const sensors = [
    { labels: { __name__: 'traffic_speed', dir: 'E', segment: 'a' }, ticks: [] as Tick[] },
    { labels: { __name__: 'traffic_speed', dir: 'W', segment: 'b' }, ticks: [] as Tick[] },
    { labels: { __name__: 'traffic_flow', dir: 'E', segment: 'a' }, ticks: [] as Tick[] },
  ];
  for (let i = 0; i < 120; i++) {
    sensors[0]!.ticks.push({ t: T0 + i * 30_000 + 7, v: 50 + (i % 7) });
    if (i % 3 === 0) sensors[1]!.ticks.push({ t: T0 + i * 30_000 + 11, v: 40 - (i % 5) });
    sensors[2]!.ticks.push({ t: T0 + i * 30_000, v: i });
  }

  it.each(['count', 'sum', 'avg', 'min', 'max', 'last', 'first'])(
    '%s_over_time equals a fold of the raw ticks at every step',
    async (name) => {
      const fn = `${name}_over_time`;
      const times = Array.from({ length: 30 }, (_, i) => T0 + 10 * MINUTE + i * MINUTE);
      const { value } = await evaluate(
        parsePromQL(`${fn}(traffic_speed[10m])`),
        times,
        MINUTE,
        memorySource(sensors),
      );
      expect(value.type).toBe('vector');
      if (value.type !== 'vector') return;
      expect(value.series.map((s) => s.labels)).toEqual(
        fn === 'last_over_time' || fn === 'first_over_time'
          ? [sensors[0]!.labels, sensors[1]!.labels]
          : [
              { dir: 'E', segment: 'a' },
              { dir: 'W', segment: 'b' },
            ],
      );
      value.series.forEach((s, i) =>
        times.forEach((t, k) =>
          expect(close(s.values[k]!, reference(fn, sensors[i]!.ticks, t, 10 * MINUTE))).toBe(true),
        ),
      );
    },
  );

  it('holds for any ticks, range and step (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            t: fc.integer({ min: 0, max: 3 * 3_600_000 }),
            v: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          }),
          { maxLength: 200 },
        ),
        fc.constantFrom(
          ...['count', 'sum', 'avg', 'min', 'max', 'last', 'first'].map((f) => `${f}_over_time`),
        ),
        fc.constantFrom(60_000, 300_000, 600_000, 3_600_000, 90_000),
        fc.constantFrom(60_000, 120_000, 900_000),
        async (raw, fn, range, step) => {
          // Distinct times: two ticks at one millisecond have no defined "last".
          const ticks = [...new Map(raw.map((x) => [x.t + T0, { t: x.t + T0, v: x.v }])).values()];
          const times = Array.from({ length: 12 }, (_, i) => T0 + 3_600_000 + i * step);
          const rangeText = `${range / 1000}s`;
          const { value } = await evaluate(
            parsePromQL(`${fn}(x[${rangeText}])`),
            times,
            step,
            memorySource([{ labels: { __name__: 'x' }, ticks }]),
          );
          if (value.type !== 'vector') throw new Error('not a vector');
          const values = value.series[0]?.values ?? times.map(() => null);
          times.forEach((t, k) => {
            // Ends are rounded down to the width the range is summed from.
            const width = [3_600_000, 60_000, 1000].find(
              (w) => range % w === 0 && w <= Math.max(step, 60_000),
            )!;
            const end = Math.floor(t / width) * width;
            expect(close(values[k]!, reference(fn, ticks, end, range))).toBe(true);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('aggregates by and without labels, and ranks with topk/bottomk', async () => {
    const times = [T0 + 30 * MINUTE];
    const source = memorySource(sensors);
    const run = async (q: string) =>
      (await evaluate(parsePromQL(q), times, undefined, source)).value;
    expect(instantData(await run('count(traffic_speed)'), times[0]!)).toEqual({
      resultType: 'vector',
      result: [{ metric: {}, value: [times[0]! / 1000, '2'] }],
    });
    const byDir = await run('sum by (dir) ({__name__=~"traffic_.*"})');
    expect(instantData(byDir, times[0]!).result).toEqual([
      { metric: { dir: 'E' }, value: [times[0]! / 1000, String(50 + (59 % 7) + 59)] },
      { metric: { dir: 'W' }, value: [times[0]! / 1000, String(40 - (57 % 5))] },
    ]);
    const top = await run('topk(1, traffic_speed)');
    expect(instantData(top, times[0]!).result).toEqual([
      { metric: sensors[0]!.labels, value: [times[0]! / 1000, String(50 + (59 % 7))] },
    ]);
    const bottom = await run('bottomk(1, traffic_speed)');
    expect(
      instantData(bottom, times[0]!).result.map((r) => (r as { metric: object }).metric),
    ).toEqual([sensors[1]!.labels]);
    const without = await run('max without (segment) (traffic_speed)');
    expect(
      instantData(without, times[0]!).result.map((r) => (r as { metric: object }).metric),
    ).toEqual([{ dir: 'E' }, { dir: 'W' }]);
  });

  it('applies scalars, comparisons (filtering and bool) and negation', async () => {
    const times = [T0 + 30 * MINUTE];
    const source = memorySource(sensors);
    const values = async (q: string) => {
      const data = instantData(
        (await evaluate(parsePromQL(q), times, undefined, source)).value,
        times[0]!,
      );
      return data.resultType === 'vector'
        ? data.result.map((r) => [r.metric, r.value[1]])
        : data.result[1];
    };
    expect(await values('traffic_speed * 2 - 1')).toEqual([
      [{ dir: 'E', segment: 'a' }, String((50 + (59 % 7)) * 2 - 1)],
      [{ dir: 'W', segment: 'b' }, String((40 - (57 % 5)) * 2 - 1)],
    ]);
    expect(await values('traffic_speed > 45')).toEqual([
      [sensors[0]!.labels, String(50 + (59 % 7))],
    ]);
    expect(await values('traffic_speed > bool 45')).toEqual([
      [{ dir: 'E', segment: 'a' }, '1'],
      [{ dir: 'W', segment: 'b' }, '0'],
    ]);
    expect(await values('-traffic_speed{dir="W"}')).toEqual([
      [{ dir: 'W', segment: 'b' }, String(-(40 - (57 % 5)))],
    ]);
    expect(await values('2 ^ 10 / 4')).toBe('256');
    expect(await values('1 < bool 2')).toBe('1');
  });

  it('gives a matrix of the steps each series has a sample at, and reports open levels', async () => {
    const times = [T0 - 10 * MINUTE, T0 + 5 * MINUTE];
    const evaluation = await evaluate(
      parsePromQL('traffic_speed{dir="E"}'),
      times,
      15 * MINUTE,
      memorySource(sensors),
    );
    expect(evaluation.openLevels).toEqual(['hour']);
    expect(rangeData(evaluation.value, times)).toEqual({
      resultType: 'matrix',
      result: [{ metric: sensors[0]!.labels, values: [[times[1]! / 1000, String(50 + (9 % 7))]] }],
    });
  });

  it('matches two vectors one to one, on all labels but the name, on() or ignoring()', async () => {
    const times = [T0 + 30 * MINUTE];
    const source = memorySource(sensors);
    const run = async (q: string) =>
      instantData((await evaluate(parsePromQL(q), times, undefined, source)).value, times[0]!)
        .result;
    const speed = 50 + (59 % 7);
    expect(await run('traffic_speed / traffic_flow')).toEqual([
      { metric: { dir: 'E', segment: 'a' }, value: [times[0]! / 1000, String(speed / 59)] },
    ]);
    expect(await run('traffic_speed - on(dir) traffic_flow{segment="a"}')).toEqual([
      { metric: { dir: 'E' }, value: [times[0]! / 1000, String(speed - 59)] },
    ]);
    expect(await run('traffic_speed{dir="E"} > ignoring(segment) traffic_flow')).toEqual([]);
    expect(await run('traffic_speed{dir="E"} < bool ignoring(segment) traffic_flow')).toEqual([
      { metric: { dir: 'E' }, value: [times[0]! / 1000, '1'] },
    ]);
    await expect(run('traffic_speed + on() traffic_flow')).rejects.toThrow(
      /duplicate series for the match group/,
    );
  });

  it('refuses before reading: on() with a number, a bare comparison of numbers; a duplicate label set', async () => {
    const source = memorySource(sensors);
    const times = [T0];
    await expect(
      evaluate(parsePromQL('traffic_speed / on(a) 2'), times, undefined, source),
    ).rejects.toThrow(/not a vector and a number/);
    await expect(evaluate(parsePromQL('1 < 2'), times, undefined, source)).rejects.toThrow(
      /bool modifier/,
    );
    expect(source.reads).toBe(0);
    await expect(
      evaluate(
        parsePromQL('avg_over_time({__name__=~"traffic_.*",dir="E"}[5m])'),
        [T0 + 30 * MINUTE],
        undefined,
        source,
      ),
    ).rejects.toThrow(/same labelset/);
  });
});
