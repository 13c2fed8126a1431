import { describe, expect, test } from '@jest/globals';
import {
  LevelPolicy,
  addToBins,
  foldBatch,
  sketchPlace,
  type FoldInput,
  type Level,
  type SketchBins,
  type Totals,
} from '../../src/index.js';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

function tick(offset: number, ts: number, fields: Record<string, number>): FoldInput {
  return {
    seriesKey: 'stock.tick|symbol=ACME',
    metric: 'stock.tick',
    tags: { symbol: 'ACME' },
    ts,
    fields,
    strings: {},
    kafkaPartition: 0,
    offset,
  };
}

const TICKS = [
  tick(0, T0 + 1_000, { price: 10, volume: 3 }),
  tick(1, T0 + 2_000, { price: -2.5, volume: 1 }),
  tick(2, T0 + 61_000, { price: 0 }),
  tick(3, T0 + 62_000, { price: 4, volume: 2 }),
];

const POLICY = new LevelPolicy({
  hour: { compact: [] },
  sketch: ['stock.tick'],
  weights: [{ metric: 'stock.tick', field: 'price', by: 'volume' }],
});

/** A fold's bins as the stored sketch. */
const q = (totals: Totals) =>
  totals.bins === undefined ? undefined : Object.fromEntries(totals.bins);

function bins(...values: number[]): SketchBins {
  const q: SketchBins = {};
  for (const v of values) addToBins(q, v);
  return q;
}

describe('foldBatch: spread, weighted sums and sketches', () => {
  test('every aggregate keeps Σx²; a weighted field Σx·w and Σw over the ticks carrying w', () => {
    const [hour] = foldBatch('hour', TICKS, POLICY).values();
    const price = hour!.fields.get('price')!;
    expect(price.total).toMatchObject({ n: 4, sum: 11.5, sq: 100 + 6.25 + 0 + 16 });
    expect(price.total).toMatchObject({ xw: 30 - 2.5 + 8, w: 6, weighed: 3 });
    expect(price.sub[1]).toMatchObject({ n: 2, sq: 16, xw: 8, w: 2, weighed: 1 });
    // The weight field itself is not weighted.
    expect(hour!.fields.get('volume')!.total).toMatchObject({ sq: 14, weighed: 0 });
    // Without the policy: Σx² still, nothing weighted, no sketch.
    const [plain] = foldBatch('hour', TICKS).values();
    expect(plain!.fields.get('price')!.total).toMatchObject({
      sq: 122.25,
      weighed: 0,
      bins: undefined,
    });
  });

  test.each([
    ['minute', false, 'totals'],
    ['hour', false, 'sub'],
    ['hour', true, undefined],
    ['day', false, 'sub'],
  ] as const)('%s (compact %s) keeps its sketches in %s', (level: Level, compact, place) => {
    expect(sketchPlace(level, compact)).toBe(place);
  });

  test('one sketch per minute: a minute bucket in its totals, an hour in each minute, a day in each hour', () => {
    const minutes = [...foldBatch('minute', TICKS, POLICY).values()];
    expect(minutes.map((m) => q(m.fields.get('price')!.total))).toEqual([
      bins(10, -2.5),
      bins(0, 4),
    ]);
    const [hour] = foldBatch('hour', TICKS, POLICY).values();
    const price = hour!.fields.get('price')!;
    expect(price.total.bins).toBeUndefined();
    expect([q(price.sub[0]!), q(price.sub[1]!)]).toEqual([bins(10, -2.5), bins(0, 4)]);
    const [day] = foldBatch('day', TICKS, POLICY).values();
    const daily = day!.fields.get('price')!;
    expect(daily.total.bins).toBeUndefined();
    expect(q(daily.sub[10]!)).toEqual(bins(10, -2.5, 0, 4));
    const compact = POLICY.with('hour', ['stock.tick'], 'compact');
    const [compactHour] = foldBatch('hour', TICKS, compact).values();
    expect(compactHour!.sketch).toBeUndefined();
    expect(compactHour!.fields.get('price')!.total.bins).toBeUndefined();
  });
});
