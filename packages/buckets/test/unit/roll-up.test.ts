import { describe, expect, it } from '@jest/globals';
import { rollUp, type FinerBucket } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const mark = <V>(iso: string, o: number, v: V) => ({ t: at(iso), o, v });
const agg = (n: number, sum: number, min: number, max: number, first: unknown, last: unknown) => ({
  n,
  sum,
  min,
  max,
  first,
  last,
});

const SERIES = { series: 'px|sym=ACME', metric: 'px', tags: { sym: 'ACME' } };

/** A minute bucket as the workers store it (per-second values are not read by a roll-up). */
function minute(iso: string, rest: Record<string, unknown>): FinerBucket {
  const start = new Date(iso);
  return { _id: `px|sym=ACME:${iso}`, ...SERIES, level: 'minute', start, ...rest };
}

describe('rollUp', () => {
  it('makes an hour bucket from its minute buckets: totals add and merge, each minute an m entry', () => {
    const a = mark('2026-11-21T10:05:10Z', 7, 10);
    const b = mark('2026-11-21T10:05:50Z', 3, 30);
    const c = mark('2026-11-21T10:42:00Z', 9, 5);
    const hours = rollUp('hour', [
      minute('2026-11-21T10:42:00Z', {
        n: 1,
        f: { price: { ...agg(1, 5, 5, 5, c, c), v: { '0': c } } },
        s: {
          venue: {
            first: mark('2026-11-21T10:42:00Z', 9, 'X'),
            last: mark('2026-11-21T10:42:00Z', 9, 'X'),
          },
        },
        ap: { '0': 9 },
      }),
      minute('2026-11-21T10:05:00Z', {
        n: 2,
        f: { price: { ...agg(2, 40, 10, 30, a, b), v: { '10': a, '50': b } } },
        s: {
          venue: {
            first: mark('2026-11-21T10:05:10Z', 7, 'N'),
            last: mark('2026-11-21T10:05:50Z', 3, 'Q'),
          },
        },
        ap: { '0': 7, '1': 2 },
      }),
    ]);
    expect([...hours.keys()]).toEqual(['px|sym=ACME:2026112110']);
    expect(hours.get('px|sym=ACME:2026112110')).toEqual({
      _id: 'px|sym=ACME:2026112110',
      ...SERIES,
      level: 'hour',
      start: new Date('2026-11-21T10:00:00Z'),
      n: 3,
      f: {
        price: {
          ...agg(3, 45, 5, 30, a, c),
          // Minute buckets written before Σx² existed: it covers none of the hour's ticks.
          sqn: 0,
          m: { '5': agg(2, 40, 10, 30, a, b), '42': agg(1, 5, 5, 5, c, c) },
        },
      },
      s: {
        venue: {
          first: mark('2026-11-21T10:05:10Z', 7, 'N'),
          last: mark('2026-11-21T10:42:00Z', 9, 'X'),
        },
      },
      ap: { '0': 9, '1': 2 },
    });
  });

  it('makes a day bucket from hour buckets, keyed h.<hour>', () => {
    const a = mark('2026-11-21T03:10:00Z', 1, 4);
    const b = mark('2026-11-21T23:59:59Z', 2, 8);
    const hour = (iso: string, m: ReturnType<typeof mark<number>>) => ({
      _id: `x:${iso}`,
      ...SERIES,
      level: 'hour',
      start: new Date(iso),
      n: 1,
      f: { price: { ...agg(1, m.v, m.v, m.v, m, m), m: { '0': agg(1, m.v, m.v, m.v, m, m) } } },
      ap: { '0': m.o },
    });
    const days = rollUp('day', [hour('2026-11-21T03:00:00Z', a), hour('2026-11-21T23:00:00Z', b)]);
    expect(days.get('px|sym=ACME:20261121')).toEqual({
      _id: 'px|sym=ACME:20261121',
      ...SERIES,
      level: 'day',
      start: new Date('2026-11-21T00:00:00Z'),
      n: 2,
      f: {
        price: {
          ...agg(2, 12, 4, 8, a, b),
          sqn: 0,
          h: { '3': agg(1, 4, 4, 4, a, a), '23': agg(1, 8, 8, 8, b, b) },
        },
      },
      ap: { '0': 2 },
    });
  });

  it('keeps Σx² only where it covers all of a finer field, and counts what Σx·w covers', () => {
    const a = mark('2026-11-21T10:05:10Z', 1, 10);
    const b = mark('2026-11-21T10:06:10Z', 2, 20);
    const c = mark('2026-11-21T10:07:10Z', 3, 3);
    const hours = rollUp('hour', [
      // Whole: Σx² covers both ticks; Σx·w covers one (`wn`).
      minute('2026-11-21T10:05:00Z', {
        n: 2,
        f: { price: { ...agg(2, 20, 10, 10, a, a), sq: 200, sqn: 2, xw: 30, w: 3, wn: 1 } },
      }),
      // Begun before Σx² was written: it covers 1 of 2 ticks, so it is no spread.
      minute('2026-11-21T10:06:00Z', {
        n: 2,
        f: { price: { ...agg(2, 40, 20, 20, b, b), sq: 400, sqn: 1 } },
      }),
      // Written before `sqn` and `wn` existed: Σx² and Σx·w taken to cover every tick.
      minute('2026-11-21T10:07:00Z', {
        n: 1,
        f: { price: { ...agg(1, 3, 3, 3, c, c), sq: 9, xw: 6, w: 2 } },
      }),
    ]);
    const price = (
      hours.get('px|sym=ACME:2026112110')!.f as Record<string, Record<string, unknown>>
    ).price!;
    expect(price).toMatchObject({ n: 5, sq: 209, sqn: 3, xw: 36, w: 5, wn: 2 });
    const m = price.m as Record<string, Record<string, unknown>>;
    expect(m['5']).toMatchObject({ sq: 200, xw: 30, w: 3, wn: 1 });
    expect(m['6']).not.toHaveProperty('sq');
    expect(m['7']).toMatchObject({ sq: 9, xw: 6, w: 2, wn: 1 });
    for (const entry of Object.values(m)) expect(entry).not.toHaveProperty('sqn');
  });

  it('keeps series and slots apart', () => {
    const one = (series: string, iso: string) => ({
      _id: `${series}:${iso}`,
      series,
      metric: 'px',
      tags: {},
      level: 'minute',
      start: new Date(iso),
      n: 1,
      ap: { '0': 1 },
    });
    const hours = rollUp('hour', [
      one('a', '2026-11-21T10:59:00Z'),
      one('a', '2026-11-21T11:00:00Z'),
      one('b', '2026-11-21T10:00:00Z'),
      one('b', '2026-11-21T10:30:00Z'),
    ]);
    expect([...hours.entries()].map(([id, doc]) => [id, doc.n]).sort()).toEqual([
      ['a:2026112110', 1],
      ['a:2026112111', 1],
      ['b:2026112110', 2],
    ]);
    // No numeric or string field: none stored, as on the live path.
    expect(hours.get('b:2026112110')).not.toHaveProperty('f');
    expect(hours.get('b:2026112110')).not.toHaveProperty('s');
  });
});
