import { describe, expect, it } from '@jest/globals';
import type { FieldSlot } from '@tickertape/store';
import { FinalBucketCache, type CacheEvent, type SlotRead } from '../../src/final-bucket-cache.js';

const slot: SlotRead = {
  level: 'hour',
  start: Date.UTC(2026, 0, 1, 10),
  field: 'v',
  generation: 0,
};
const bucket = (series: string, n = 1): FieldSlot => ({
  series,
  level: slot.level,
  start: slot.start,
  totals: { n, sum: n, min: 1, max: 1, first: { t: 0, o: 0, v: 1 }, last: { t: 0, o: 0, v: 1 } },
  subSlots: [],
});

function setup(maxBytes = 1 << 20) {
  const events: [CacheEvent, number][] = [];
  const cache = new FinalBucketCache({ maxBytes, observe: (e, n) => events.push([e, n]) });
  const asked: (readonly string[] | undefined)[] = [];
  // The database as far as the cache is concerned: a and b have buckets, others none.
  const stored = new Map([
    ['a', bucket('a')],
    ['b', bucket('b', 2)],
  ]);
  const read = (missing: readonly string[] | undefined) => {
    asked.push(missing);
    const keys = missing ?? [...stored.keys()];
    return Promise.resolve(keys.flatMap((key) => stored.get(key) ?? []));
  };
  return { cache, events, asked, read };
}

const sorted = (docs: readonly FieldSlot[]) => docs.map((d) => d.series).sort();

describe('FinalBucketCache', () => {
  it('reads only the series it does not hold, and remembers absent ones', async () => {
    const s = setup();
    expect(sorted(await s.cache.read(slot, { series: ['a', 'x'] }, s.read))).toEqual(['a']);
    expect(sorted(await s.cache.read(slot, { series: ['a', 'b', 'x'] }, s.read))).toEqual([
      'a',
      'b',
    ]);
    expect(sorted(await s.cache.read(slot, { series: ['b', 'x', 'a'] }, s.read))).toEqual([
      'a',
      'b',
    ]);
    expect(s.asked).toEqual([['a', 'x'], ['b']]);
    expect(s.events).toEqual([
      ['miss', 2],
      ['hit', 2],
      ['miss', 1],
      ['hit', 3],
    ]);
  });

  it('keys by generation, field and slot: a swapped level reads again', async () => {
    const s = setup();
    await s.cache.read(slot, { series: ['a'] }, s.read);
    await s.cache.read({ ...slot, generation: 1 }, { series: ['a'] }, s.read);
    await s.cache.read({ ...slot, field: 'w' }, { series: ['a'] }, s.read);
    await s.cache.read({ ...slot, start: slot.start + 3_600_000 }, { series: ['a'] }, s.read);
    expect(s.asked).toHaveLength(4);
  });

  it('keeps a metric selection whole, and reads it once for windows asking together', async () => {
    const s = setup();
    const selection = { metric: 'traffic', tags: { dir: 'E', road: 'I80' }, limit: 51 };
    const same = { metric: 'traffic', tags: { road: 'I80', dir: 'E' }, limit: 51 };
    const [first, second] = await Promise.all([
      s.cache.read(slot, selection, s.read),
      s.cache.read(slot, same, s.read),
    ]);
    expect(sorted(first)).toEqual(['a', 'b']);
    expect(second).toBe(first);
    await s.cache.read(slot, selection, s.read);
    await s.cache.read(slot, { ...selection, limit: 11 }, s.read);
    expect(s.asked).toEqual([undefined, undefined]);
  });

  it('stays within its bytes', async () => {
    const s = setup(2000);
    for (let i = 0; i < 50; i++)
      await s.cache.read({ ...slot, start: slot.start + i * 3_600_000 }, { series: ['a'] }, s.read);
    expect(s.cache.bytes).toBeLessThanOrEqual(2000);
    expect(s.events.some(([e]) => e === 'evicted')).toBe(true);
  });
});
