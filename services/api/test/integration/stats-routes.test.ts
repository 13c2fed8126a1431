/**
 * Spread, quantiles and VWAP over HTTP on the real stack: a stock metric sketched and its price
 * weighted by its volume (the level policy, set through the store), ticks written by the real
 * write path, and /window, /points and /candles asked for quantiles in JSON and CSV — every
 * answer checked against a fold of the ticks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SKETCH_ALPHA } from '@tickertape/buckets';
import { storesOf } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack, prng } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import type {
  CandlesBody,
  LevelsBody,
  PointsBody,
  WindowBody,
} from '../../src/response-schemas.js';
import { qs, startTestApi, type RunningApi } from '../support/api.js';
import { HOUR, MINUTE, at, writeTicks, type RefTick } from '../support/ticks.js';

const START = at('2026-03-02T09:30:00Z');
const END = at('2026-03-02T11:30:00Z');
const NOW = at('2026-03-02T12:00:00Z');
const STOCK = seriesKey('stock.tick', { symbol: 'ACME' });

/** A trade every 0.5-3 s: prices over two decades (a crash and a rally), volumes 1-500. */
function trades(): RefTick[] {
  const rand = prng(36);
  const ticks: RefTick[] = [];
  let price = 120;
  for (let ts = START; ts < END; ts += 500 + Math.floor(rand() * 2500)) {
    price = Math.max(0.5, price * (1 + (rand() - 0.52) * 0.02));
    ticks.push({
      series: STOCK,
      metric: 'stock.tick',
      tags: { symbol: 'ACME' },
      ts,
      offset: ticks.length,
      fields: { price, volume: 1 + Math.floor(rand() * 500) },
    });
  }
  return ticks;
}

const rankValue = (values: readonly number[], phi: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(phi * (values.length - 1))]!;

function foldVariance(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
}

describe('spread, quantiles and VWAP on the read routes', () => {
  let stack: TestStack;
  let api: RunningApi;
  const ticks = trades();
  const inRange = (from: number, to: number) => ticks.filter((t) => t.ts >= from && t.ts < to);

  /** The stats a read must answer for the ticks of [from, to). */
  function expectStats(
    answered: {
      variance: number | null;
      quantiles?: Record<string, number | null>;
      weighted?: { by: string; avg: number | null };
      coverage: { spread: number; sketch?: number; weighted?: number };
    },
    from: number,
    to: number,
    phis: readonly number[],
  ): void {
    const trades = inRange(from, to);
    const prices = trades.map((t) => t.fields.price!);
    const n = prices.length;
    expect(answered.coverage).toEqual({ spread: n, sketch: n, weighted: n });
    expect(answered.variance).toBeCloseTo(foldVariance(prices), 9);
    for (const phi of phis) {
      const truth = rankValue(prices, phi);
      expect(Math.abs(answered.quantiles![`q${phi}`]! - truth)).toBeLessThanOrEqual(
        SKETCH_ALPHA * truth * (1 + 1e-12),
      );
    }
    const volume = trades.reduce((a, t) => a + t.fields.volume!, 0);
    const vwap = trades.reduce((a, t) => a + t.fields.price! * t.fields.volume!, 0) / volume;
    expect(answered.weighted!.by).toBe('volume');
    expect(Math.abs(answered.weighted!.avg! - vwap)).toBeLessThanOrEqual(1e-9 * vwap);
  }

  beforeAll(async () => {
    stack = await TestStack.open('api-stats');
    const db = testDatabase(stack);
    const { rollups } = await storesOf(db);
    await rollups.changeMetricPolicy({ kind: 'sketch', metrics: ['stock.tick'], on: true }, NOW);
    await rollups.changeMetricPolicy(
      { kind: 'weight', metric: 'stock.tick', field: 'price', by: 'volume' },
      NOW,
    );
    // A sparse metric the scheduler's rule skips at the minute level (none of its ticks here).
    await rollups.changeAutoSkip({ kind: 'skip', metric: 'mms.cpu', fromMs: NOW }, NOW);
    // One the operator keeps out of the rule's reach (tickertape levels keep minute).
    await rollups.changePins({ kind: 'pin', metrics: ['mms.mem'], untilMs: NOW }, NOW);
    await writeTicks(db, ticks);
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it.each([
    ['the hours of a day bucket and the minutes either side', START, END, true],
    [
      'a whole day (the merge of its hours’ sketches)',
      at('2026-03-02T00:00Z'),
      at('2026-03-03T00:00Z'),
      false,
    ],
  ])('a window over %s', async (_name, from, to, inParts) => {
    const phis = [0.01, 0.5, 0.85, 0.99];
    const body = await windowQuantiles(api, from, to, phis);
    expect(body.pieces.every((piece) => piece.sub !== undefined)).toBe(inParts);
    expectStats(body.rows[0]!, from, to, phis);
  });

  it('lists the sketched metrics, the weighted fields, the automatic spans and the pinned metrics in /levels', async () => {
    const res = await api.get<LevelsBody>('/api/v1/levels');
    expect(res.body.sketches).toEqual(['stock.tick']);
    expect(res.body.weights).toEqual([{ metric: 'stock.tick', field: 'price', by: 'volume' }]);
    expect(res.body.autoSkips).toEqual([
      { level: 'minute', metric: 'mms.cpu', from: new Date(NOW).toISOString(), until: null },
    ]);
    expect(res.body.levels.map(({ level, pinned }) => [level, pinned])).toEqual([
      ['minute', ['mms.mem']],
      ['hour', []],
      ['day', []],
    ]);
  });

  it('hour points and 5-minute candles, each from its own ticks', async () => {
    const points = await api.get<PointsBody>(
      `/api/v1/points${qs(['series', STOCK], ['field', 'price'], ['from', at('2026-03-02T09:00:00Z')], ['to', at('2026-03-02T12:00:00Z')], ['level', 'hour'], ['quantile', '0.5,0.99'])}`,
    );
    expect(points.body.points).toHaveLength(3);
    for (const point of points.body.points)
      expectStats(point, point.t, point.t + HOUR, [0.5, 0.99]);

    const candles = await api.get<CandlesBody>(
      `/api/v1/candles${qs(['series', STOCK], ['field', 'price'], ['from', START], ['to', END], ['maxPoints', 24], ['quantile', '0.85'])}`,
    );
    expect(candles.body.resolution.stepMs).toBe(5 * MINUTE);
    for (const candle of candles.body.candles)
      expectStats(candle, candle.t, candle.t + 5 * MINUTE, [0.85]);
  });

  it('CSV: a column per quantile and the VWAP named by its weight, with the coverage', async () => {
    const res = await api.get(
      `/api/v1/candles${qs(['series', STOCK], ['field', 'price'], ['from', START], ['to', END], ['maxPoints', 24], ['quantile', '0.5,0.85'], ['format', 'csv'])}`,
    );
    const [header, first] = res.text.split('\r\n');
    expect(header).toBe(
      'time,time_ms,series,symbol,field,open,high,low,close,volume,variance,stddev,' +
        'q0.5,q0.85,wavg_volume,coverage_spread,coverage_sketch,coverage_weighted,final',
    );
    const cells = first!.split(',');
    const n = inRange(START, START + 5 * MINUTE).length;
    expect(cells.slice(-4, -1)).toEqual([String(n), String(n), String(n)]);
  });
});

/** The stock's price window over [from, to) with the quantiles `phis`, answered 200. */
async function windowQuantiles(
  api: RunningApi,
  from: number,
  to: number,
  phis: readonly number[],
): Promise<WindowBody> {
  const res = await api.get<WindowBody>(
    `/api/v1/window${qs(['series', STOCK], ['field', 'price'], ['from', from], ['to', to], ['quantile', phis.join(',')])}`,
  );
  expect(res.status).toBe(200);
  return res.body;
}

describe('a metric sketched at its own α, changed while its buckets are open', () => {
  let stack: TestStack;
  let api: RunningApi;
  const ticks = trades();
  const half = at('2026-03-02T10:30:00Z');
  const prices = (from: number, to: number) =>
    ticks.filter((t) => t.ts >= from && t.ts < to).map((t) => t.fields.price!);
  const quantiles = async (from: number, to: number, phis: readonly number[]) =>
    (await windowQuantiles(api, from, to, phis)).rows[0]!;

  beforeAll(async () => {
    stack = await TestStack.open('api-stats-alpha');
    const db = testDatabase(stack);
    const { rollups } = await storesOf(db);
    // 5 % for the first hour, then 0.5 %: the hour bucket 10:00 holds bins of both.
    const sketch = (alpha: number) =>
      rollups.changeMetricPolicy({ kind: 'sketch', metrics: ['stock.tick'], on: true, alpha }, NOW);
    await sketch(0.05);
    await writeTicks(
      db,
      ticks.filter((t) => t.ts < half),
    );
    await sketch(0.005);
    await writeTicks(
      db,
      ticks.filter((t) => t.ts >= half),
    );
    api = await startTestApi(await storesOf(db), { reader: { now: () => NOW } });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await stack?.close();
  });

  it.each([
    ['before the change, at 5 %', START, half, 0.05],
    ['after it, at 0.5 %', half, END, 0.005],
    ['across it: within the larger', START, END, 0.05],
  ])('answers quantiles %s', async (_name, from, to, alpha) => {
    const phis = [0.01, 0.5, 0.85, 0.99];
    const row = await quantiles(from, to, phis);
    const values = prices(from, to);
    expect(row.coverage.sketch).toBe(values.length);
    for (const phi of phis) {
      const truth = rankValue(values, phi);
      expect(Math.abs(row.quantiles![`q${phi}`]! - truth)).toBeLessThanOrEqual(
        alpha * truth * (1 + 1e-12),
      );
    }
  });

  it('lists the α in /levels', async () => {
    const res = await api.get<LevelsBody>('/api/v1/levels');
    expect(res.body.sketches).toEqual(['stock.tick']);
    expect(res.body.sketchAlpha).toEqual([{ metric: 'stock.tick', alpha: 0.005 }]);
  });
});
