import { describe, expect, it } from '@jest/globals';
import type { SegmentDocument } from '@tickertape/segments';
import { compareSeriesSegments, expectedPoints, type TruthTick } from '../../src/index.js';

const T0 = Date.parse('2026-11-21T23:59:58Z');

function tick(
  ts: number,
  offset: number,
  speed: number,
  metric = 'traffic',
  partition = 0,
): TruthTick {
  return {
    series: `${metric}|s=1`,
    metric,
    tags: { s: '1' },
    ts,
    fields: { speed },
    strings: {},
    partition,
    offset,
  };
}

function segment(points: [number, number][], over: Partial<SegmentDocument> = {}): SegmentDocument {
  const t = points.map(([time]) => time);
  const v = points.map(([, speed]) => ({ speed }));
  return {
    _id: `traffic|s=1:x:${t[0]}`,
    series: 'traffic|s=1',
    metric: 'traffic',
    tags: { s: '1' },
    day: '',
    start: t[0]!,
    end: t[t.length - 1]!,
    prevEnd: Number.NEGATIVE_INFINITY,
    nextStart: Number.POSITIVE_INFINITY,
    n: t.length,
    t,
    v,
    last: { t: t[t.length - 1]!, v: v[v.length - 1]! },
    ap: {},
    p: 0,
    ...over,
  };
}

describe('expectedPoints', () => {
  it('keeps offset order, drops points older than the newest kept point, and repeats on write-on-change metrics', () => {
    const ticks = [
      tick(T0 + 2000, 3, 5),
      tick(T0, 0, 1),
      tick(T0 + 1000, 1, 1),
      tick(T0 + 500, 2, 9),
    ];
    const chain = (rules: { writeOnChange: Set<string> }) =>
      expectedPoints(ticks, rules).get('traffic|s=1')?.get(0);
    expect(chain({ writeOnChange: new Set() })).toEqual([
      { t: T0, v: { speed: 1 } },
      { t: T0 + 1000, v: { speed: 1 } },
      { t: T0 + 2000, v: { speed: 5 } },
    ]);
    expect(chain({ writeOnChange: new Set(['traffic']) })).toEqual([
      // The repeat at T0+1000 is not kept, so T0+500 is not older than the newest kept point.
      { t: T0, v: { speed: 1 } },
      { t: T0 + 500, v: { speed: 9 } },
      { t: T0 + 2000, v: { speed: 5 } },
    ]);
  });

  it('keeps a chain per partition of a series on two partitions, late decided within each', () => {
    const ticks = [
      tick(T0 + 2000, 0, 1, 'traffic', 0),
      tick(T0 + 1000, 0, 2, 'traffic', 1), // older than partition 0's point, not than its own
      tick(T0 + 500, 1, 3, 'traffic', 1), // late in partition 1
      tick(T0 + 3000, 1, 4, 'traffic', 0),
    ];
    const chains = expectedPoints(ticks, { writeOnChange: new Set() }).get('traffic|s=1');
    expect(chains?.get(0)).toEqual([
      { t: T0 + 2000, v: { speed: 1 } },
      { t: T0 + 3000, v: { speed: 4 } },
    ]);
    expect(chains?.get(1)).toEqual([{ t: T0 + 1000, v: { speed: 2 } }]);
  });
});

describe('compareSeriesSegments', () => {
  const check = { maxPoints: 2, partial: false };
  const points = [
    { t: T0, v: { speed: 1 } },
    { t: T0 + 1000, v: { speed: 2 } },
    { t: T0 + 3000, v: { speed: 3 } },
  ];
  // Two segments split at UTC midnight, linked both ways.
  const good = () => [
    segment(
      [
        [T0, 1],
        [T0 + 1000, 2],
      ],
      { nextStart: T0 + 3000 },
    ),
    segment([[T0 + 3000, 3]], { prevEnd: T0 + 1000 }),
  ];

  it('accepts segments that hold exactly the points, linked to their neighbours', () => {
    expect(compareSeriesSegments('traffic|s=1', points, good(), check)).toEqual([]);
  });

  it('reports a lost point, a changed value, an extra point and a broken link', () => {
    const [first, second] = good();
    first!.v[1] = { speed: 7 };
    second!.t.push(T0 + 4000);
    second!.v.push({ speed: 4 });
    second!.n = 2;
    second!.end = T0 + 4000;
    second!.prevEnd = T0;
    expect(
      compareSeriesSegments(
        'traffic|s=1',
        [...points, { t: T0 + 5000, v: { speed: 5 } }],
        [first!, second!],
        check,
      ),
    ).toEqual([
      {
        store: 'segments',
        kind: 'wrong',
        id: second!._id,
        path: 'prevEnd',
        expected: T0 + 1000,
        actual: T0,
      },
      {
        store: 'segments',
        kind: 'wrong',
        id: `traffic|s=1@${new Date(T0 + 1000).toISOString()}`,
        path: 'v',
        expected: { speed: 2 },
        actual: { speed: 7 },
      },
      {
        store: 'segments',
        kind: 'missing',
        id: `traffic|s=1@${new Date(T0 + 5000).toISOString()}`,
        expected: { speed: 5 },
      },
      {
        store: 'segments',
        kind: 'extra',
        id: `traffic|s=1@${new Date(T0 + 4000).toISOString()}`,
        actual: { speed: 4 },
      },
    ]);
  });

  it('reports a segment over the size bound or across midnight', () => {
    const whole = segment([
      [T0, 1],
      [T0 + 1000, 2],
      [T0 + 3000, 3],
    ]);
    expect(compareSeriesSegments('traffic|s=1', points, [whole], check)).toEqual([
      {
        store: 'segments',
        kind: 'wrong',
        id: whole._id,
        path: 'n (at most SEGMENT_MAX_POINTS)',
        expected: 2,
        actual: 3,
      },
      {
        store: 'segments',
        kind: 'wrong',
        id: whole._id,
        path: 'day (points cross a UTC midnight)',
        expected: 1,
        actual: 2,
      },
    ]);
  });
});
