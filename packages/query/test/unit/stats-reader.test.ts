import { beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, SKETCH_ALPHA, type FoldInput } from '@tickertape/buckets';
import { createMemoryStore, type RollupStore } from '@tickertape/store';
import { RollupReader, quantileName, type Stats } from '../../src/index.js';
import { newYearScenario, sensorKey, stockKey, type Scenario } from '../support/ticks.js';

/*
 * Spread, quantiles and VWAP read end to end: ticks written by the real write path with the
 * traffic and stock metrics sketched and the stock's price weighted by its volume, read back over
 * every kind of cover (sub-slot runs, whole hours and days whose sketches are their sub-slots',
 * slot points merged from their sub-slots, seconds) and checked against a fold of the ticks.
 */

const at = (iso: string) => Date.parse(iso);
const NOW = at('2027-01-02T12:00:00Z');
const PHIS = [0, 0.25, 0.5, 0.85, 0.99, 1];

function foldVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

/** The value at rank ⌊φ·(n − 1)⌋ of the sorted values: each quantile is within α of it. */
function rankValue(values: readonly number[], phi: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(phi * (sorted.length - 1))]!;
}

/** The stats of `values` as a read must answer them: every tick covered, exact up to rounding. */
function expectStats(stats: Stats & { n: number | null }, values: readonly number[]): void {
  expect(stats.n).toBe(values.length);
  expect(stats.coverage).toMatchObject({ spread: values.length, sketch: values.length });
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  expect(Math.abs(stats.variance! - foldVariance(values))).toBeLessThanOrEqual(
    1e-9 * Math.max(1, mean * mean),
  );
  for (const phi of PHIS) {
    const truth = rankValue(values, phi);
    const answered = stats.quantiles![quantileName(phi)]!;
    expect(Math.abs(answered - truth)).toBeLessThanOrEqual(SKETCH_ALPHA * Math.abs(truth) + 1e-9);
  }
}

describe('stats read back from buckets written with sketches and weights', () => {
  let store: RollupStore;
  let scenario: Scenario;
  let reader: RollupReader;
  const ticksOf = (key: string, fromMs: number, toMs: number): FoldInput[] =>
    scenario.ticks.filter((t) => t.seriesKey === key && t.ts >= fromMs && t.ts < toMs);
  const valuesOf = (key: string, field: string, fromMs: number, toMs: number) =>
    ticksOf(key, fromMs, toMs).map((t) => t.fields[field]!);

  beforeAll(async () => {
    store = createMemoryStore();
    await store.changeMetricPolicy(
      { kind: 'sketch', metrics: ['traffic', 'stock.tick'], on: true },
      NOW,
    );
    await store.changeMetricPolicy(
      { kind: 'weight', metric: 'stock.tick', field: 'price', by: 'volume' },
      NOW,
    );
    scenario = newYearScenario();
    for (const level of LEVELS) {
      const writer = store.writer(level);
      for (let i = 0; i < scenario.ticks.length; i += 3000)
        await writer.apply(scenario.ticks.slice(i, i + 3000));
    }
    reader = new RollupReader({ rollups: store }, { now: () => NOW });
  }, 120_000);

  it.each([
    ['minute runs of two hour buckets', '2026-12-31T23:55:00Z', '2027-01-01T00:05:00Z'],
    ['two whole hours (their minutes’ sketches)', '2026-12-31T23:00:00Z', '2027-01-01T01:00:00Z'],
    ['two whole days (their hours’ sketches)', '2026-12-31T00:00:00Z', '2027-01-02T00:00:00Z'],
  ])('a window over %s', async (_name, from, to) => {
    const sensors = [0, 1, 2, 3].map(sensorKey);
    const result = await reader.window({
      series: sensors,
      field: 'speed',
      fromMs: at(from),
      toMs: at(to),
      quantiles: PHIS,
    });
    for (const row of result.rows)
      expectStats(row, valuesOf(row.series, 'speed', at(from), at(to)));
  });

  it('a window by metric answers the same stats as the listed series', async () => {
    const window = {
      field: 'speed',
      fromMs: at('2026-12-31T23:50:00Z'),
      toMs: at('2027-01-01T00:10:00Z'),
    };
    const byMetric = await reader.windowByMetric({
      metric: 'traffic',
      limit: 50,
      ...window,
      quantiles: [0.85],
    });
    const listed = await reader.window({
      series: byMetric.rows.map((r) => r.series),
      ...window,
      quantiles: [0.85],
    });
    expect(byMetric.rows).toEqual(listed.rows);
  });

  it.each([
    ['hour', 'slot', 3_600_000],
    ['hour', 'sub', 60_000],
    ['day', 'slot', 86_400_000],
    ['day', 'sub', 3_600_000],
  ] as const)('%s points by %s', async (level, detail, width) => {
    const key = sensorKey(5);
    const result = await reader.range({
      series: key,
      field: 'speed',
      fromMs: at('2026-12-31T00:00:00Z'),
      toMs: at('2027-01-02T00:00:00Z'),
      level,
      detail,
      quantiles: PHIS,
    });
    expect(result.points.length).toBeGreaterThan(0);
    for (const point of result.points)
      expectStats(point, valuesOf(key, 'speed', point.t, point.t + width));
  });

  it('seconds of a minute bucket: exact where a second holds one tick, uncovered where it holds more', async () => {
    const key = stockKey('ACME');
    const from = at('2027-01-01T00:00:00Z');
    const result = await reader.range({
      series: key,
      field: 'price',
      fromMs: from,
      toMs: from + 60_000,
      level: 'minute',
      detail: 'sub',
      quantiles: [0.5],
    });
    for (const point of result.points) {
      const prices = valuesOf(key, 'price', point.t, point.t + 1000);
      const covered = prices.length === 1 ? 1 : 0;
      expect(point.coverage).toMatchObject({ spread: covered, sketch: covered });
      expect(point.quantiles!['q0.5']).toBe(covered === 1 ? prices[0]! : null);
    }
  });

  it('candles carry VWAP, named by the weight field, exact against the ticks', async () => {
    const key = stockKey('INIT');
    const from = at('2026-12-31T23:40:00Z');
    const result = await reader.candles({
      series: key,
      field: 'price',
      fromMs: from,
      toMs: at('2027-01-01T00:20:00Z'),
      maxPoints: 8,
      quantiles: PHIS,
    });
    const width = result.resolution.stepMs;
    expect(result.candles.length).toBeGreaterThan(0);
    for (const candle of result.candles) {
      const ticks = ticksOf(key, candle.t, candle.t + width);
      const volume = ticks.reduce((a, t) => a + t.fields.volume!, 0);
      const vwap = ticks.reduce((a, t) => a + t.fields.price! * t.fields.volume!, 0) / volume;
      expect(candle.weighted!.by).toBe('volume');
      expect(Math.abs(candle.weighted!.avg! - vwap)).toBeLessThanOrEqual(1e-9 * vwap);
      expect(candle.coverage.weighted).toBe(ticks.length);
      expectStats(
        { ...candle, n: candle.volume },
        ticks.map((t) => t.fields.price!),
      );
    }
    // The weight field itself is not weighted.
    const volumes = await reader.window({
      series: [key],
      field: 'volume',
      fromMs: from,
      toMs: from + 600_000,
    });
    expect(volumes.rows[0]!.weighted).toBeUndefined();
  });
});
