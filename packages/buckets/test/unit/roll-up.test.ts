import { describe, expect, it } from '@jest/globals';
import { rollUp, shellDocument, type FinerBucket } from '../../src/index.js';

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
          h: { '3': agg(1, 4, 4, 4, a, a), '23': agg(1, 8, 8, 8, b, b) },
        },
      },
      ap: { '0': 2 },
    });
  });

  it('ignores shells and their padding; a slot with only shells makes no bucket', () => {
    const shell = (iso: string) =>
      shellDocument(
        'minute',
        { seriesKey: SERIES.series, metric: 'px', tags: SERIES.tags, fields: ['price', 'volume'] },
        at(iso),
      ).doc;
    const c = mark('2026-11-21T10:42:00Z', 9, 5);
    const written = { ...shell('2026-11-21T10:42:00Z'), n: 1 } as Record<string, unknown>;
    const padded = written.f as Record<string, Record<string, unknown>>;
    written.f = { ...padded, price: { ...padded.price, ...agg(1, 5, 5, 5, c, c) } };
    written.ap = { '0': 9 };
    const hours = rollUp('hour', [
      shell('2026-11-21T10:41:00Z'),
      written,
      shell('2026-11-21T11:00:00Z'),
    ]);
    expect([...hours.keys()]).toEqual(['px|sym=ACME:2026112110']);
    expect(hours.get('px|sym=ACME:2026112110')).toMatchObject({
      n: 1,
      f: { price: { ...agg(1, 5, 5, 5, c, c), m: { '42': agg(1, 5, 5, 5, c, c) } } },
      ap: { '0': 9 },
    });
    expect(Object.keys(hours.get('px|sym=ACME:2026112110')!.f as object)).toEqual(['price']);
    expect(rollUp('hour', [shell('2026-11-21T12:00:00Z')]).size).toBe(0);
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
