import { describe, expect, it } from '@jest/globals';
import { addExactValue, fieldSetKeyOf, type Aggregate } from '@tickertape/buckets';
import { aggregatesOf } from '../../../src/layout/aggregates.js';
import { fieldSlotOf } from '../../../src/layout/field-slot.js';
import { shellDocument } from '../../../src/layout/shells.js';
import type { StoredBucket } from '../../../src/layout/stored-bucket.js';

const MINUTE = Date.UTC(2026, 0, 1, 10, 5);
const HOUR = Date.UTC(2026, 0, 1, 10);
const agg = (n: number, sum: number, t: number): Aggregate => ({
  n,
  sum,
  min: sum / n - 1,
  max: sum / n + 1,
  first: { t, o: 1, v: sum / n - 1 },
  last: { t: t + 1, o: 2, v: sum / n + 1 },
});
const stored = (doc: unknown) => doc as Pick<StoredBucket, 'f' | 'c'>;

describe('fieldSlotOf: the one decoder of the stored layout', () => {
  it('decodes a minute bucket: compact seconds, a legacy mark only where no count, shells skipped', () => {
    const doc = stored({
      f: {
        speed: {
          ...agg(3, 30, MINUTE),
          sec: { '0': 20, '1': 0, '7': 10 },
          // Seconds written before the compact layout: a mark; 7 has a count too, 9 is padding.
          v: {
            '5': { t: MINUTE + 5_000, o: 3, v: 4 },
            '7': { t: MINUTE + 7_000, o: 4, v: 9 },
            '9': { t: -Infinity },
          },
        },
      },
      c: { [fieldSetKeyOf(['speed'])]: { '0': 2, '1': 0, '7': 1 } },
    });
    const slot = fieldSlotOf({ series: 's', level: 'minute', start: MINUTE }, doc, 'speed', {
      totals: true,
      sub: 'all',
    });
    expect(slot).toEqual({
      series: 's',
      level: 'minute',
      start: MINUTE,
      totals: agg(3, 30, MINUTE),
      subSlots: [
        { index: 0, kind: 'compact', n: 2, sum: 20 },
        { index: 5, kind: 'mark', mark: { t: MINUTE + 5_000, o: 3, v: 4 } },
        { index: 7, kind: 'compact', n: 1, sum: 10 },
      ],
    });
  });

  it('gives both forms of a minute an hour bucket holds across a policy change, in that order', () => {
    const doc = stored({
      f: {
        v: {
          ...agg(4, 40, HOUR),
          m: { '3': agg(1, 10, HOUR + 3 * 60_000), '4': { n: 0 } },
          msum: { '3': 30 },
        },
      },
      c: { [fieldSetKeyOf(['v', 'w'])]: { '3': 3 } },
    });
    const slot = fieldSlotOf({ series: 's', level: 'hour', start: HOUR }, doc, 'v', {
      totals: false,
      sub: { from: 0, to: 60 },
    });
    expect(slot.totals).toBeUndefined();
    expect(slot.subSlots).toEqual([
      { index: 3, kind: 'aggregate', aggregate: agg(1, 10, HOUR + 3 * 60_000) },
      { index: 3, kind: 'compact', n: 3, sum: 30 },
    ]);
  });

  it('keeps the totals alone, without the sub-maps stored beside them', () => {
    const doc = stored({ f: { v: { ...agg(2, 4, HOUR), h: { '10': agg(2, 4, HOUR) } } } });
    const slot = fieldSlotOf(
      { series: 's', level: 'day', start: HOUR - 10 * 3_600_000 },
      doc,
      'v',
      {
        totals: true,
      },
    );
    expect(slot.totals).toEqual(agg(2, 4, HOUR));
    expect(slot.subSlots).toEqual([]);
  });

  it.each(['minute', 'hour', 'day'] as const)(
    'sees nothing observed in a %s shell (compact or not)',
    (level) => {
      for (const compact of [false, true]) {
        const shell = shellDocument(
          level,
          { seriesKey: 's', metric: 'm', tags: {}, fields: ['v'] },
          HOUR - (level === 'day' ? 10 * 3_600_000 : 0),
          compact,
        );
        const slot = fieldSlotOf({ series: 's', level, start: 0 }, stored(shell.doc), 'v', {
          totals: true,
          sub: 'all',
        });
        expect(slot.totals).toBeUndefined();
        expect(slot.subSlots).toEqual([]);
      }
    },
  );

  it('leaves Σx² out of a field whose Σx² does not cover all its ticks (sqn < n), keeps it otherwise', () => {
    const withSq = (a: Aggregate, sq: number): Aggregate => ({ ...a, sq });
    const field = (sqn: number | undefined) => ({
      ...withSq(agg(3, 6, HOUR), 14),
      ...(sqn === undefined ? {} : { sqn }),
      m: { '0': withSq(agg(2, 4, HOUR), 10), '1': withSq(agg(1, 2, HOUR + 60_000), 4) },
    });
    const read = (sqn: number | undefined) =>
      fieldSlotOf(
        { series: 's', level: 'hour', start: HOUR },
        stored({ f: { v: field(sqn) } }),
        'v',
        {
          totals: true,
          sub: 'all',
        },
      );
    const sqs = (slot: ReturnType<typeof read>) => [
      slot.totals?.sq,
      ...slot.subSlots.map((s) => (s.kind === 'aggregate' ? s.aggregate.sq : undefined)),
    ];
    // Begun before Σx² was written: one of three ticks uncovered, so no Σx² comes out.
    expect(sqs(read(2))).toEqual([undefined, undefined, undefined]);
    expect(sqs(read(3))).toEqual([14, 10, 4]);
    // Written before `sqn` existed, by code that wrote Σx² with every tick.
    expect(sqs(read(undefined))).toEqual([14, 10, 4]);
  });

  it('decodes a bucket without the field as empty', () => {
    const slot = fieldSlotOf({ series: 's', level: 'hour', start: HOUR }, stored({}), 'v', {
      totals: true,
      sub: 'all',
    });
    expect(slot).toEqual({ series: 's', level: 'hour', start: HOUR, subSlots: [] });
  });
});

describe('aggregatesOf: a window part of a decoded bucket', () => {
  const slot = fieldSlotOf(
    { series: 's', level: 'hour', start: HOUR },
    stored({
      f: {
        v: {
          ...agg(6, 60, HOUR),
          m: { '1': agg(2, 20, HOUR + 60_000), '9': agg(1, 5, HOUR + 9 * 60_000) },
          msum: { '2': 12 },
        },
      },
      c: { v: { '2': 3 } },
    }),
    'v',
    { totals: true, sub: 'all' },
  );

  it('gives the totals for a whole part', () => {
    expect(aggregatesOf({ level: 'hour', start: HOUR }, slot)).toEqual([agg(6, 60, HOUR)]);
  });

  it('gives the sub-slots inside the part, a compact one as its mean at the sub-slot start', () => {
    const mean = { t: HOUR + 2 * 60_000, o: 0, v: 4 };
    expect(aggregatesOf({ level: 'hour', start: HOUR, sub: { from: 1, to: 9 } }, slot)).toEqual([
      agg(2, 20, HOUR + 60_000),
      { n: 3, sum: 12, min: 4, max: 4, first: mean, last: mean },
    ]);
  });

  it('passes the spread, weighted sums and sketches through, and derives them for a compact sub-slot with one tick', () => {
    const q = { '200': 2, n5: 1, z: 1 };
    const minute = fieldSlotOf(
      { series: 's', level: 'minute', start: MINUTE },
      stored({
        f: { v: { ...agg(4, 8, MINUTE), sq: 40, xw: 16, w: 2, q, sec: { '3': 5, '4': 3 } } },
        c: { v: { '3': 1, '4': 2 } },
      }),
      'v',
      { totals: true, sub: 'all' },
    );
    expect(minute.totals).toEqual({ ...agg(4, 8, MINUTE), sq: 40, xw: 16, w: 2, q });
    const [one, two] = aggregatesOf(
      { level: 'minute', start: MINUTE, sub: { from: 0, to: 60 } },
      minute,
    );
    const bins = {};
    addExactValue(bins, 5);
    // One tick: its sum is its value, so its square and sketch are exact; two: not known.
    expect(one).toMatchObject({ n: 1, sum: 5, sq: 25, q: bins });
    expect(two).toEqual({
      n: 2,
      sum: 3,
      min: 1.5,
      max: 1.5,
      first: { t: MINUTE + 4_000, o: 0, v: 1.5 },
      last: { t: MINUTE + 4_000, o: 0, v: 1.5 },
    });
    const hour = fieldSlotOf(
      { series: 's', level: 'hour', start: HOUR },
      stored({
        f: { v: { ...agg(2, 20, HOUR), sq: 202, m: { '1': { ...agg(2, 20, HOUR), sq: 202, q } } } },
      }),
      'v',
      { totals: true, sub: 'all' },
    );
    expect(hour.subSlots).toEqual([
      { index: 1, kind: 'aggregate', aggregate: { ...agg(2, 20, HOUR), sq: 202, q } },
    ]);
    // A shell's padding, sq 0 included, is still no data.
    const shell = shellDocument(
      'hour',
      { seriesKey: 's', metric: 'm', tags: {}, fields: ['v'] },
      HOUR,
    );
    expect(
      fieldSlotOf({ series: 's', level: 'hour', start: HOUR }, stored(shell.doc), 'v', {
        totals: true,
        sub: 'all',
      }),
    ).toEqual({ series: 's', level: 'hour', start: HOUR, subSlots: [] });
  });

  it('gives nothing for a bucket without observations', () => {
    expect(
      aggregatesOf(
        { level: 'hour', start: HOUR },
        { series: 's', level: 'hour', start: HOUR, subSlots: [] },
      ),
    ).toEqual([]);
  });
});
