import { describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import fc from 'fast-check';
import { planSeries, type SegmentHead, type SeriesPlan } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const SERIES = 'counter|host=a';

function tick(ts: number, value: number, offset: number, partition = 0): FoldInput {
  return {
    seriesKey: SERIES,
    metric: 'counter',
    tags: { host: 'a' },
    ts,
    fields: { value },
    strings: {},
    kafkaPartition: partition,
    offset,
  };
}

const options = { maxPoints: 3, writeOnlyOnChange: false };

/** The head a plan leaves, as the next flush would read it back from the database. */
const headAfter = (plan: SeriesPlan) => plan.head;

/** Every point a plan writes, in order. */
const written = (plan: SeriesPlan) => [
  ...(plan.append?.points ?? []),
  ...plan.create.flatMap(({ doc }) => doc.t.map((t, i) => ({ t, v: doc.v[i] }))),
];

describe('planSeries', () => {
  it('starts a series with a segment whose id is its first tick, with no previous end', () => {
    const plan = planSeries(undefined, [tick(at('2026-11-21T10:00:00Z'), 1, 7)], options);
    expect(plan.create).toHaveLength(1);
    expect(plan.create[0]!.collection).toBe('segments_20261121');
    expect(plan.create[0]!.doc).toMatchObject({
      _id: `${SERIES}:20261121:000:0000000000000000007`,
      prevEnd: -Infinity,
      nextStart: Infinity,
      n: 1,
      ap: { '0': 7 },
    });
  });

  it('fills a segment up to maxPoints, then opens the next one and links both ways', () => {
    const t0 = at('2026-11-21T10:00:00Z');
    const plan = planSeries(
      undefined,
      [0, 1, 2, 3, 4].map((i) => tick(t0 + i * 1000, i, i)),
      options,
    );
    expect(plan.create.map(({ doc }) => [doc.n, doc.prevEnd, doc.nextStart])).toEqual([
      [3, -Infinity, t0 + 3000],
      [2, t0 + 2000, Infinity],
    ]);
    expect(plan.close).toEqual([]);
    expect(plan.head).toMatchObject({ n: 2, end: t0 + 4000, ap: { '0': 4 } });
  });

  it('appends to an existing head in one operation and closes it when full', () => {
    const t0 = at('2026-11-21T10:00:00Z');
    const first = planSeries(undefined, [tick(t0, 1, 0), tick(t0 + 1, 2, 1)], options);
    const second = planSeries(headAfter(first), [tick(t0 + 2, 3, 2), tick(t0 + 3, 4, 3)], options);
    // Filled and closed in one update: one operation per segment touched.
    expect(second.append).toMatchObject({
      id: first.head!.id,
      minOffset: 2,
      maxOffset: 2,
      points: [{ t: t0 + 2, v: { value: 3 } }],
      nextStart: t0 + 3,
    });
    expect(second.close).toEqual([]);
    // A head filled by an earlier flush is closed by an update of its own.
    const third = planSeries(second.head, [tick(t0 + 4, 5, 4), tick(t0 + 5, 6, 5)], options);
    expect(third.append?.nextStart).toBeUndefined();
    const fourth = planSeries(third.head, [tick(t0 + 6, 7, 6)], options);
    expect(fourth.append).toBeUndefined();
    expect(fourth.close).toEqual([
      { id: second.head!.id, collection: 'segments_20261121', nextStart: t0 + 6 },
    ]);
    expect(second.create.map(({ doc }) => [doc.t, doc.prevEnd])).toEqual([[[t0 + 3], t0 + 2]]);
  });

  it('never lets a segment cross a UTC midnight', () => {
    const plan = planSeries(
      undefined,
      [tick(at('2026-11-21T23:59:59Z'), 1, 0), tick(at('2026-11-22T00:00:00Z'), 2, 1)],
      { maxPoints: 100, writeOnlyOnChange: false },
    );
    expect(plan.create.map(({ collection, doc }) => [collection, doc.n])).toEqual([
      ['segments_20261121', 1],
      ['segments_20261122', 1],
    ]);
  });

  it('skips replayed offsets, late ticks and (when asked) unchanged values, counting each', () => {
    const t0 = at('2026-11-21T10:00:00Z');
    const onChange = { maxPoints: 100, writeOnlyOnChange: true };
    const first = planSeries(
      undefined,
      [tick(t0, 5, 10), tick(t0 + 10, 6, 11), tick(t0 + 20, 6, 12)],
      onChange,
    );
    expect(first.skipped).toEqual({ replayed: 0, late: 0, unchanged: 1 });
    expect(first.head).toMatchObject({ end: t0 + 10, ap: { '0': 11 } });
    const second = planSeries(
      headAfter(first),
      [
        tick(t0 + 10, 6, 11), // redelivered
        tick(t0 + 5, 9, 13), // older than the newest stored point
        tick(t0 + 30, 6, 14), // same value as the newest stored point
        tick(t0 + 40, 7, 15),
      ],
      onChange,
    );
    expect(second.skipped).toEqual({ replayed: 1, late: 1, unchanged: 1 });
    expect(written(second).map((p) => p.t)).toEqual([t0 + 40]);
  });

  it('makes the same segments however a stream is split into flushes and replayed', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 3 * 3_600_000 }), fc.integer({ min: -5, max: 5 })),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 20 }),
        (gapsAndValues, cuts, rewinds) => {
          let ts = at('2026-11-21T22:00:00Z');
          const ticks = gapsAndValues.map(([gap, value], offset) =>
            tick((ts += gap), value, offset),
          );
          const reference = planSeries(undefined, ticks, options);
          // Flushes of varying size, each starting a few offsets back (redelivery after a crash).
          let head: SegmentHead | undefined;
          const docs = new Map<string, { t: number[]; nextStart: number }>();
          let from = 0;
          for (let i = 0; from < ticks.length; i++) {
            const start = Math.max(0, from - rewinds[i % rewinds.length]!);
            const end = Math.min(ticks.length, from + cuts[i % cuts.length]!);
            const plan = planSeries(head, ticks.slice(start, end), options);
            if (plan.append) {
              const doc = docs.get(plan.append.id)!;
              doc.t.push(...plan.append.points.map((p) => p.t));
              if (plan.append.nextStart !== undefined) doc.nextStart = plan.append.nextStart;
            }
            for (const c of plan.close) docs.get(c.id)!.nextStart = c.nextStart;
            for (const { doc } of plan.create)
              docs.set(doc._id, { t: [...doc.t], nextStart: doc.nextStart });
            head = plan.head;
            from = end;
          }
          expect([...docs.entries()]).toEqual(
            reference.create.map(({ doc }) => [doc._id, { t: doc.t, nextStart: doc.nextStart }]),
          );
        },
      ),
    );
  });
});
