import { describe, expect, it } from '@jest/globals';
import { SKETCH_ALPHA, addToBins, type SketchBins } from '@tickertape/buckets';
import fc from 'fast-check';
import {
  evaluate,
  instantData,
  matchesAll,
  parsePromQL,
  prometheusQuantile,
  windowQuantile,
  type Matcher,
  type SampleSource,
  type SeriesPoints,
  type WidthPoint,
} from '../../src/index.js';

interface Tick {
  t: number;
  v: number;
}

/** What a series' buckets keep beyond n, sum, min, max, first and last. */
interface Parts {
  sq: boolean;
  sketch: boolean;
  /** Buckets before this time were written before the parts were kept. */
  since?: number;
}

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 26, 10, 0);

/** Points of `width` from raw ticks, as buckets keep them, with Σx² and sketch where `parts` say. */
function pointsOf(ticks: readonly Tick[], width: number, from: number, to: number, parts: Parts) {
  const byStart = new Map<number, Tick[]>();
  for (const tick of ticks) {
    if (tick.t < from || tick.t >= to) continue;
    const start = Math.floor(tick.t / width) * width;
    byStart.set(start, [...(byStart.get(start) ?? []), tick]);
  }
  return [...byStart.entries()]
    .sort(([a], [b]) => a - b)
    .map(([t, run]): WidthPoint => {
      const ordered = [...run].sort((a, b) => a.t - b.t);
      const values = ordered.map((x) => x.v);
      const kept = t >= (parts.since ?? -Infinity);
      const bins: SketchBins = {};
      for (const v of values) addToBins(bins, v);
      return {
        t,
        n: values.length,
        sum: values.reduce((s, v) => s + v, 0),
        min: Math.min(...values),
        max: Math.max(...values),
        first: values[0]!,
        last: values.at(-1)!,
        ...(parts.sq && kept ? { sq: values.reduce((s, v) => s + v * v, 0) } : {}),
        ...(parts.sketch && kept ? { q: bins } : {}),
      };
    });
}

function memorySource(
  data: { labels: Record<string, string>; ticks: Tick[]; parts: Parts }[],
): SampleSource {
  return {
    widths: [86_400_000, 3_600_000, MINUTE, 1000],
    read(matchers: readonly Matcher[], request: { fromMs: number; toMs: number; widthMs: number }) {
      const series: SeriesPoints[] = data
        .filter(({ labels }) => matchesAll(matchers, labels))
        .map(({ labels, ticks, parts }) => ({
          labels,
          points: pointsOf(ticks, request.widthMs, request.fromMs, request.toMs, parts),
        }));
      return Promise.resolve({ series, openLevels: [] });
    },
  };
}

/** The raw values of [end − range, end), as a Prometheus server would hold them. */
const inside = (ticks: readonly Tick[], end: number, range: number) =>
  ticks
    .filter((x) => x.t >= end - range && x.t < end)
    .sort((a, b) => a.t - b.t)
    .map((x) => x.v);

/** Independent references: the definitions, on sorted raw values. */
function refQuantile(phi: number, values: readonly number[]): number {
  if (Number.isNaN(phi)) return NaN;
  if (phi < 0) return -Infinity;
  if (phi > 1) return Infinity;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = phi * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! * (1 - (rank - lo)) + sorted[hi]! * (rank - lo);
}

function refVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
}

/**
 * Σx² − (Σx)²/n inside one minute cancels: the spread from parts is exact up to ε·x̄²/var
 * (docs/data-layout.md), so near-constant large values get that much, absolute, on top of 1e-9.
 */
const closeSpread = (a: number | null, values: readonly number[]) =>
  a !== null &&
  Math.abs(a - refVariance(values)) <=
    1e-9 * Math.max(1, refVariance(values)) +
      64 * Number.EPSILON * (values.reduce((s, v) => s + v * v, 0) / values.length);

const close = (a: number | null | undefined, b: number) =>
  a !== null &&
  a !== undefined &&
  (Object.is(a, b) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));

/** One tick in each minute (at a varying second), so every minute point is one tick. */
const perMinute = (values: readonly number[]): Tick[] =>
  values.map((v, i) => ({ t: T0 + i * MINUTE + ((i * 7919) % 59) * 1000, v }));

/** Values over five decades, both signs and zeros: what sketches must hold within α. */
const spread = fc.oneof(
  fc.double({ min: 1e-3, max: 1e2, noNaN: true }),
  fc.double({ min: -1e2, max: -1e-3, noNaN: true }),
  fc.constant(0),
  fc.integer({ min: -1000, max: 1000 }),
);

const series = (fn: string, values: (number | null)[]) => ({ fn, values });

async function run(query: string, times: number[], step: number | undefined, source: SampleSource) {
  const evaluation = await evaluate(parsePromQL(query), times, step, source);
  if (evaluation.value.type !== 'vector') throw new Error('not a vector');
  return { series: evaluation.value.series, warnings: evaluation.warnings };
}

describe("Prometheus' quantile", () => {
  it.each<[number, number[], number]>([
    [-0.5, [1, 2, 3], -Infinity],
    [-Infinity, [1], -Infinity],
    [1.5, [1, 2, 3], Infinity],
    [Infinity, [1], Infinity],
    [NaN, [1, 2, 3], NaN],
    [0, [3, 1, 2], 1],
    [1, [3, 1, 2], 3],
    [0.5, [1, 2, 3, 4], 2.5],
    [0.25, [50, 10, 40, 20, 30], 20],
    [0.9, [7], 7],
    [0.1, [0, 10], 1],
  ])('φ = %p of %p is %p', (phi, values, expected) => {
    expect(prometheusQuantile(phi, values)).toBe(expected);
    // The same answer from one-tick points, and out-of-range φ whatever the points hold.
    const points = values.map((v, i) => ({
      t: i,
      n: 1,
      sum: v,
      min: v,
      max: v,
      first: v,
      last: v,
    }));
    expect(windowQuantile(phi, points)).toBe(expected);
  });

  it('gives ±Inf and NaN for φ out of [0, 1] even where buckets keep no sketch', () => {
    const point = { t: 0, n: 3, sum: 6, min: 1, max: 3, first: 1, last: 3 };
    expect(windowQuantile(-0.1, [point])).toBe(-Infinity);
    expect(windowQuantile(1.1, [point])).toBe(Infinity);
    expect(windowQuantile(NaN, [point])).toBeNaN();
    expect(windowQuantile(0.5, [point])).toBeUndefined();
  });
});

describe('quantile_over_time, stddev_over_time and stdvar_over_time', () => {
  it('are exact, with no sketch or Σx², where every minute holds one tick (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(spread, { minLength: 1, maxLength: 90 }),
        fc.oneof(fc.double({ min: -0.2, max: 1.2, noNaN: true }), fc.constant(NaN)),
        fc.constantFrom(MINUTE, 5 * MINUTE, 10 * MINUTE, 60 * MINUTE),
        async (values, phi, range) => {
          const ticks = perMinute(values);
          const source = memorySource([
            { labels: { __name__: 'x' }, ticks, parts: { sq: false, sketch: false } },
          ]);
          const times = Array.from({ length: 20 }, (_, i) => T0 + (i * 5 + 1) * MINUTE);
          const r = `${range / 1000}s`;
          for (const { fn, values: answers } of [
            series(
              'q',
              (await run(`quantile_over_time(${phi}, x[${r}])`, times, MINUTE, source)).series[0]
                ?.values ?? [],
            ),
            series(
              'var',
              (await run(`stdvar_over_time(x[${r}])`, times, MINUTE, source)).series[0]?.values ??
                [],
            ),
            series(
              'dev',
              (await run(`stddev_over_time(x[${r}])`, times, MINUTE, source)).series[0]?.values ??
                [],
            ),
          ])
            times.forEach((t, k) => {
              const window = inside(ticks, t, range);
              if (window.length === 0) return expect(answers[k] ?? null).toBeNull();
              const expected =
                fn === 'q'
                  ? refQuantile(phi, window)
                  : fn === 'var'
                    ? refVariance(window)
                    : Math.sqrt(refVariance(window));
              if (!close(answers[k], expected))
                throw new Error(
                  `${fn} at ${k}: ${answers[k]} vs ${expected} of ${window.join(' ')}`,
                );
            });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('take the spread from n, Σx and Σx² where minutes hold several ticks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            t: fc.integer({ min: 0, max: 2 * 3_600_000 }),
            v: fc.integer({ min: -40_000, max: 40_000 }).map((q) => q / 4),
          }),
          { minLength: 1, maxLength: 300 },
        ),
        fc.constantFrom(MINUTE, 10 * MINUTE, 60 * MINUTE),
        fc.constantFrom(MINUTE, 15 * MINUTE),
        async (raw, range, step) => {
          const ticks = raw.map((x) => ({ t: T0 + x.t, v: x.v }));
          const source = memorySource([
            { labels: { __name__: 'x' }, ticks, parts: { sq: true, sketch: false } },
          ]);
          const times = Array.from({ length: 10 }, (_, i) => T0 + MINUTE + i * 13 * MINUTE);
          const { series: out, warnings } = await run(
            `stdvar_over_time(x[${range / 1000}s])`,
            times,
            step,
            source,
          );
          expect(warnings).toEqual([]);
          times.forEach((t, k) => {
            const end = Math.floor(t / MINUTE) * MINUTE;
            const window = inside(ticks, end, range);
            const got = out[0]?.values[k] ?? null;
            if (window.length === 0) return expect(got).toBeNull();
            if (!closeSpread(got, window))
              throw new Error(`${got} vs ${refVariance(window)} of ${window.join(' ')}`);
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answer quantiles within α of the ticks from merged sketches, exact at the ends (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 3_600_000 }), v: spread }), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1, 0.5, 0.99)),
        fc.constantFrom(MINUTE, 10 * MINUTE, 60 * MINUTE),
        async (raw, phi, range) => {
          const ticks = raw.map((x) => ({ t: T0 + x.t, v: x.v }));
          const source = memorySource([
            { labels: { __name__: 'x' }, ticks, parts: { sq: true, sketch: true } },
          ]);
          const times = Array.from({ length: 8 }, (_, i) => T0 + (i * 9 + 1) * MINUTE);
          const { series: out, warnings } = await run(
            `quantile_over_time(${phi}, x[${range / 1000}s])`,
            times,
            MINUTE,
            source,
          );
          expect(warnings).toEqual([]);
          times.forEach((t, k) => {
            const window = inside(ticks, t, range).sort((a, b) => a - b);
            const got = out[0]?.values[k] ?? null;
            if (window.length === 0) return expect(got).toBeNull();
            const rank = phi * (window.length - 1);
            const lo = window[Math.floor(rank)]!;
            const hi = window[Math.min(window.length - 1, Math.floor(rank) + 1)]!;
            const w = rank - Math.floor(rank);
            const truth = lo * (1 - w) + hi * w;
            // Each neighbour within α (the zero bin: within its 1e-9 magnitude).
            const bound = SKETCH_ALPHA * ((1 - w) * Math.abs(lo) + w * Math.abs(hi)) + 1e-9;
            if (got === null || Math.abs(got - truth) > bound * (1 + 1e-9))
              throw new Error(
                `φ ${phi}: ${got} vs ${truth} (bound ${bound}) of ${window.join(' ')}`,
              );
            if (phi === 0) expect(got).toBe(window[0]);
            if (phi === 1) expect(got).toBe(window.at(-1));
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('windows the buckets cannot answer', () => {
  const busy: Tick[] = Array.from({ length: 240 }, (_, i) => ({
    t: T0 + i * 15_000,
    v: 40 + ((i * 37) % 23),
  }));
  const times = Array.from({ length: 6 }, (_, i) => T0 + (10 + i * 10) * MINUTE);

  it('leave the sample out and say so in a warning naming the series, never a guess', async () => {
    const source = memorySource([
      {
        labels: { __name__: 'traffic_speed', segment: 'a' },
        ticks: busy,
        parts: { sq: true, sketch: true },
      },
      {
        labels: { __name__: 'traffic_speed', segment: 'b' },
        ticks: busy,
        parts: { sq: false, sketch: false },
      },
    ]);
    const quantile = await run(
      'quantile_over_time(0.85, traffic_speed[10m])',
      times,
      MINUTE,
      source,
    );
    expect(quantile.series.map((s) => s.labels)).toEqual([{ segment: 'a' }, { segment: 'b' }]);
    expect(quantile.series[0]!.values.every((v) => v !== null)).toBe(true);
    expect(quantile.series[1]!.values).toEqual(times.map(() => null));
    expect(quantile.warnings).toEqual([
      expect.stringMatching(
        /^quantile_over_time: samples left out, not estimated, .*quantile sketch.*: traffic_speed\{segment="b"\} \(6 of 6 steps\)$/,
      ),
    ]);
    const spreadOf = await run('stddev_over_time(traffic_speed[10m])', times, MINUTE, source);
    expect(spreadOf.series[1]!.values).toEqual(times.map(() => null));
    expect(spreadOf.warnings).toEqual([expect.stringMatching(/^stddev_over_time: .*Σx²/)]);
    // Inside an aggregation the group is what the covered series say, and the warning stays.
    const top = await run(
      'max(quantile_over_time(0.85, traffic_speed[10m]))',
      times,
      MINUTE,
      source,
    );
    expect(top.series[0]!.values).toEqual(quantile.series[0]!.values);
    expect(top.warnings).toEqual(quantile.warnings);
  });

  it('answer the windows after the parts were kept, and only those', async () => {
    const since = T0 + 25 * MINUTE;
    const source = memorySource([
      { labels: { __name__: 'x' }, ticks: busy, parts: { sq: true, sketch: true, since } },
    ]);
    for (const query of ['stdvar_over_time(x[10m])', 'quantile_over_time(0.5, x[10m])']) {
      const { series: out, warnings } = await run(query, times, MINUTE, source);
      // Windows ending at 10, 20 and 30 minutes touch minutes before 25.
      expect(out[0]!.values.map((v) => v !== null)).toEqual([
        false,
        false,
        false,
        true,
        true,
        true,
      ]);
      expect(warnings).toEqual([expect.stringContaining('x (3 of 6 steps)')]);
    }
  });

  it('take a sketch that does not count every tick of its minute as no sketch', () => {
    const partial = pointsOf(busy, MINUTE, T0, T0 + MINUTE, { sq: true, sketch: true })[0]!;
    expect(partial.n).toBe(4);
    const bins: SketchBins = {};
    addToBins(bins, busy[0]!.v, 3);
    expect(windowQuantile(0.5, [{ ...partial, q: bins }])).toBeUndefined();
    expect(windowQuantile(0.5, [partial])).toBeDefined();
  });

  it('refuses a φ that is not a number before reading', async () => {
    let reads = 0;
    const source: SampleSource = {
      widths: [MINUTE],
      read: () => {
        reads += 1;
        return Promise.resolve({ series: [], openLevels: [] });
      },
    };
    await expect(
      evaluate(parsePromQL('quantile_over_time(x, y[5m])'), [T0], undefined, source),
    ).rejects.toThrow(/the φ of quantile_over_time must be a number/);
    expect(reads).toBe(0);
  });

  it('names five series, then counts the rest', async () => {
    const source = memorySource(
      Array.from({ length: 8 }, (_, i) => ({
        labels: { __name__: 'x', s: String(i) },
        ticks: busy,
        parts: { sq: false, sketch: false },
      })),
    );
    const { warnings } = await run(
      'stdvar_over_time(x[10m])',
      [T0 + 10 * MINUTE],
      undefined,
      source,
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/x\{s="4"\} \(1 of 1 steps\) and 3 more series$/);
  });
});

describe('inside aggregations, with offset, at an instant', () => {
  const sensors = ['E', 'E', 'W'].map((dir, s) => ({
    labels: { __name__: 'traffic_speed', dir, segment: `s${s}` },
    ticks: Array.from({ length: 120 }, (_, i) => ({
      t: T0 + i * 20_000 + s * 3,
      v: 30 + ((i * (s + 3) * 17) % 50) * (s + 1),
    })),
    parts: { sq: true, sketch: true },
  }));
  const source = memorySource(sensors);
  const t = T0 + 35 * MINUTE + 30_000;
  const end = T0 + 35 * MINUTE - 5 * MINUTE;
  const windows = sensors.map((s) => inside(s.ticks, end, 10 * MINUTE));
  const value = (data: ReturnType<typeof instantData>) =>
    data.resultType === 'vector' ? data.result.map((r) => [r.metric, Number(r.value[1])]) : [];

  it('sums spreads by dir, and ranks quantiles with topk', async () => {
    const sum = await evaluate(
      parsePromQL('sum by (dir) (stddev_over_time(traffic_speed[10m] offset 5m))'),
      [t],
      undefined,
      source,
    );
    const [east, west] = value(instantData(sum.value, t));
    expect(east![0]).toEqual({ dir: 'E' });
    expect(
      close(
        east![1] as number,
        Math.sqrt(refVariance(windows[0]!)) + Math.sqrt(refVariance(windows[1]!)),
      ),
    ).toBe(true);
    expect(close(west![1] as number, Math.sqrt(refVariance(windows[2]!)))).toBe(true);

    const top = await evaluate(
      parsePromQL('topk(1, stdvar_over_time(traffic_speed[10m] offset 5m))'),
      [t],
      undefined,
      source,
    );
    const variances = windows.map(refVariance);
    const best = variances.indexOf(Math.max(...variances));
    const [winner] = value(instantData(top.value, t));
    expect(winner![0]).toEqual({ dir: sensors[best]!.labels.dir, segment: `s${best}` });

    const quantiles = await evaluate(
      parsePromQL(
        'avg without (segment) (quantile_over_time(0.5 + 0.35, traffic_speed[10m] offset 5m))',
      ),
      [t],
      undefined,
      source,
    );
    const [eastQ] = value(instantData(quantiles.value, t));
    const truth = (refQuantile(0.85, windows[0]!) + refQuantile(0.85, windows[1]!)) / 2;
    expect(Math.abs((eastQ![1] as number) - truth)).toBeLessThanOrEqual(SKETCH_ALPHA * truth);
  });
});
