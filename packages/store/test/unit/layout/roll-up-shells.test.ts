import { describe, expect, it } from '@jest/globals';
import { rollUp } from '@tickertape/buckets';
import { shellDocument } from '../../../src/layout/shells.js';

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

describe('rollUp over shells', () => {
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
});
