import { describe, expect, it } from '@jest/globals';
import { addToBins, LevelPolicy, type SketchBins } from '@tickertape/buckets';
import { compareBuckets, expectedBuckets, type TruthTick } from '../../src/index.js';

const MINUTE = Date.parse('2026-11-21T10:15:00Z');

function tick(ts: number, offset: number, fields: Record<string, number>, strings = {}): TruthTick {
  return {
    series: 'traffic|sensor=1',
    metric: 'traffic',
    tags: { sensor: '1' },
    ts,
    fields,
    strings,
    partition: 2,
    offset,
  };
}

describe('expectedBuckets with one series on two partitions', () => {
  // Offsets of two partitions can coincide; at one time and one offset the value decides, as
  // MongoDB's $min/$max on {t, o, v} do: numbers by value, strings by their UTF-8 bytes.
  const on = (partition: number, ts: number, offset: number, speed: number, label: string) => ({
    ...tick(ts, offset, { speed }, { label }),
    partition,
  });
  const ticks = [
    on(0, MINUTE + 5_000, 3, 70, '\uFFFD'),
    on(1, MINUTE + 5_000, 3, 60, '\u{1F600}'),
    on(1, MINUTE + 1_000, 1, 90, 'z'),
    on(0, MINUTE + 1_000, 1, 80, 'b'),
  ];

  it('breaks ties on time and offset by value, and keeps an applied mark per partition', () => {
    const bucket = expectedBuckets('minute', ticks).get('traffic|sensor=1:202611211015')!;
    const f = bucket.f as { speed: Record<string, unknown> };
    expect(f.speed.first).toEqual({ t: MINUTE + 1_000, o: 1, v: 80 });
    expect(f.speed.last).toEqual({ t: MINUTE + 5_000, o: 3, v: 70 });
    // Seconds keep sums and counts: both partitions' ticks, whatever their order.
    expect(f.speed.sec).toEqual({ 1: 170, 5: 130 });
    expect(bucket.c).toEqual({ speed: { 1: 2, 5: 2 } });
    // U+FFFD is EF BF BD in UTF-8, U+1F600 is F0 9F 98 80: bytes order them the other way
    // round from UTF-16 code units (FFFD > D83D).
    expect(bucket.s).toEqual({
      label: {
        first: { t: MINUTE + 1_000, o: 1, v: 'b' },
        last: { t: MINUTE + 5_000, o: 3, v: '\u{1F600}' },
      },
    });
    expect(bucket.ap).toEqual({ 0: 3, 1: 3 });
    // The same records in any order: the same bucket.
    expect(
      expectedBuckets('minute', [...ticks].reverse()).get('traffic|sensor=1:202611211015'),
    ).toEqual(bucket);
  });
});

describe('expectedBuckets', () => {
  // Out of event-time order on purpose, with a tie on time broken by offset.
  const ticks = [
    tick(MINUTE + 30_500, 7, { speed: 50 }),
    tick(MINUTE + 1_000, 8, { speed: 40 }, { conditions: 'rain' }),
    tick(MINUTE + 30_500, 9, { speed: 55, travel_time: 3 }),
    tick(MINUTE + 61_000, 10, { speed: 60 }, { conditions: 'fog' }),
  ];

  it('folds a minute bucket: totals, the sum of each second, counts per field set, strings and the applied mark', () => {
    const buckets = expectedBuckets('minute', ticks);
    expect([...buckets.keys()]).toEqual([
      'traffic|sensor=1:202611211015',
      'traffic|sensor=1:202611211016',
    ]);
    expect(buckets.get('traffic|sensor=1:202611211015')).toEqual({
      series: 'traffic|sensor=1',
      metric: 'traffic',
      tags: { sensor: '1' },
      level: 'minute',
      start: new Date(MINUTE),
      n: 3,
      f: {
        speed: {
          n: 3,
          sum: 145,
          min: 40,
          max: 55,
          first: { t: MINUTE + 1_000, o: 8, v: 40 },
          last: { t: MINUTE + 30_500, o: 9, v: 55 },
          sq: 1600 + 2500 + 3025,
          sqn: 3,
          sec: { 1: 40, 30: 105 },
        },
        travel_time: {
          n: 1,
          sum: 3,
          min: 3,
          max: 3,
          first: { t: MINUTE + 30_500, o: 9, v: 3 },
          last: { t: MINUTE + 30_500, o: 9, v: 3 },
          sq: 9,
          sqn: 1,
          sec: { 30: 3 },
        },
      },
      // Second 30 holds one tick with speed alone and one with both fields.
      c: { speed: { 1: 1, 30: 1 }, 'speed,travel_time': { 30: 1 } },
      s: {
        conditions: {
          first: { t: MINUTE + 1_000, o: 8, v: 'rain' },
          last: { t: MINUTE + 1_000, o: 8, v: 'rain' },
        },
      },
      ap: { 2: 9 },
    });
  });

  it('folds an hour bucket with full totals per minute', () => {
    const hour = expectedBuckets('hour', ticks).get('traffic|sensor=1:2026112110');
    expect(hour?.n).toBe(4);
    const speed = (hour?.f as Record<string, { m: Record<string, { n: number; sum: number }> }>)
      .speed!;
    expect(speed.m[15]).toMatchObject({ n: 3, sum: 145 });
    expect(speed.m[16]).toMatchObject({ n: 1, sum: 60 });
    expect(hour?.ap).toEqual({ 2: 10 });
  });

  it('keeps sketches per minute and weighted sums where the policy asks for them', () => {
    const policy = new LevelPolicy({
      sketch: ['traffic'],
      weights: [{ metric: 'traffic', field: 'speed', by: 'travel_time' }],
    });
    const bins = (...values: number[]) => {
      const q: SketchBins = {};
      for (const v of values) addToBins(q, v);
      return q;
    };
    const minute = expectedBuckets('minute', ticks, policy).get('traffic|sensor=1:202611211015');
    const speed = (minute?.f as Record<string, Record<string, unknown>>).speed!;
    expect(speed).toMatchObject({ q: bins(50, 40, 55), xw: 165, w: 3, wn: 1 });
    const hour = expectedBuckets('hour', ticks, policy).get('traffic|sensor=1:2026112110');
    const hourly = (hour?.f as Record<string, Record<string, unknown>>).speed!;
    expect(hourly.q).toBeUndefined();
    expect((hourly.m as Record<string, unknown>)[15]).toMatchObject({ q: bins(50, 40, 55) });
    expect((hourly.m as Record<string, unknown>)[16]).toMatchObject({ q: bins(60) });
    expect((hourly.m as Record<string, unknown>)[16]).not.toHaveProperty('xw');
  });
});

describe('compareBuckets', () => {
  const expected = expectedBuckets('minute', [
    tick(MINUTE + 2_000, 1, { speed: 0.1 }),
    tick(MINUTE + 3_000, 2, { speed: 0.2 }),
  ]);
  const id = 'traffic|sensor=1:202611211015';
  const stored = () =>
    new Map<string, Record<string, unknown>>([
      [id, { _id: id, ...structuredClone(expected.get(id)!) }],
    ]);

  it('finds nothing when the stored bucket equals the fold, sums within the tolerance', () => {
    const same = stored();
    // 0.1 + 0.2 in another order or batch split may differ in the last bits.
    (same.get(id)!.f as { speed: { sum: number } }).speed.sum = 0.30000000000000004;
    expect(compareBuckets('minute', expected, same)).toEqual([]);
  });

  it('reports a changed field as wrong, at its path', () => {
    const changed = stored();
    (changed.get(id)!.f as { speed: { max: number } }).speed.max = 0.25;
    expect(compareBuckets('minute', expected, changed)).toEqual([
      { store: 'minute', kind: 'wrong', id, path: 'f.speed.max', expected: 0.2, actual: 0.25 },
    ]);
  });

  it('reports a deleted bucket as missing and one no tick makes as extra', () => {
    const moved = new Map([['traffic|sensor=1:202611211016', { ...stored().get(id)!, _id: 'x' }]]);
    expect(compareBuckets('minute', expected, moved)).toEqual([
      { store: 'minute', kind: 'missing', id, expected: 2, actual: undefined },
      { store: 'minute', kind: 'extra', id: 'traffic|sensor=1:202611211016', actual: 2 },
    ]);
  });

  it('treats an empty shell as missing, and shell padding around data as no difference', () => {
    const shell = { _id: id, n: 0, f: { speed: { n: 0, sum: 0 } } };
    expect(compareBuckets('minute', expected, new Map([[id, shell]]))).toEqual([
      { store: 'minute', kind: 'missing', id, expected: 2, actual: 0 },
    ]);
    const padded = stored();
    const f = padded.get(id)!.f as Record<string, { n: number; sec: Record<string, unknown> }>;
    // A shell's untouched second: a sum of 0 with no count behind it.
    f.speed!.sec[59] = 0;
    (padded.get(id)!.c as Record<string, Record<string, number>>).speed![59] = 0;
    f.volume = { n: 0, sec: {} };
    expect(compareBuckets('minute', expected, padded)).toEqual([]);
    expect(compareBuckets('minute', new Map(), new Map([[id, shell]]))).toEqual([]);
  });
});
