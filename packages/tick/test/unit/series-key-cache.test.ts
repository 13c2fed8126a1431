import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { SeriesKeyCache, seriesKey } from '../../src/index.js';
import { fragmentTagSets, KEY_FRAGMENTS } from './key-fragments.js';

// Separators and near-miss fragments make lossy lookups collide; graphemes cover the rest.
const SEPARATOR_HEAVY = fc.constantFrom('a', 'b', '|', ',', '=', '\\', ':', ' ', 'é');
const part = fc.oneof(
  fc.string({ unit: SEPARATOR_HEAVY, maxLength: 4 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
);
const series = fc.record({
  metric: part,
  tags: fc.dictionary(part, part, { maxKeys: 4 }),
});
// Series from a tiny universe, so a pool holds ones that differ in one value or one tag only.
const tiny = fc.constantFrom('', 'a', 'b', 'a=b', 'a|b');
const nearSeries = fc.record({ metric: tiny, tags: fc.dictionary(tiny, tiny, { maxKeys: 2 }) });

/** The key as seriesKey computed it before its fast path: the value must never change. */
function referenceKey(metric: string, tags: Record<string, string>): string {
  const escape = (text: string) => text.replace(/[\\|,=:]/g, '\\$&');
  const keys = Object.keys(tags).sort();
  if (keys.length === 0) return escape(metric);
  return `${escape(metric)}|${keys.map((k) => `${escape(k)}=${escape(tags[k]!)}`).join(',')}`;
}

/** The same tags as a fresh object, its keys added rotated by `turn` (another listing order). */
function reordered(tags: Record<string, string>, turn: number): Record<string, string> {
  const entries = Object.entries(tags);
  const at = entries.length === 0 ? 0 : turn % entries.length;
  return Object.fromEntries([...entries.slice(at), ...entries.slice(0, at)]);
}

describe('seriesKey', () => {
  it('is unchanged by its fast path', () => {
    fc.assert(
      fc.property(series, ({ metric, tags }) => {
        expect(seriesKey(metric, tags)).toBe(referenceKey(metric, tags));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('SeriesKeyCache', () => {
  it('returns what seriesKey returns, over any sequence, and never holds more than its bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(series, nearSeries), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(5)), { maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 40 }),
        (pool, picks, maxSeries, maxKeyLength) => {
          const cache = new SeriesKeyCache({ maxSeries, maxKeyLength });
          for (const [pick, seed] of picks) {
            const { metric, tags } = pool[pick % pool.length]!;
            const key = cache.keyOf(metric, reordered(tags, seed));
            expect(key).toBe(seriesKey(metric, tags));
            expect(cache.size).toBeLessThanOrEqual(maxSeries);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('tells apart every series built from key fragments (exhaustive)', () => {
    // Each series asked twice, the second time from the cache.
    const fragments = KEY_FRAGMENTS;
    const tagSets = fragmentTagSets();
    const cache = new SeriesKeyCache({ maxSeries: 1_000_000 });
    const wrong: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      for (const metric of fragments) {
        for (const tags of tagSets) {
          const key = cache.keyOf(metric, tags);
          if (key !== seriesKey(metric, tags)) wrong.push(key);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(cache.size).toBe(fragments.length * tagSets.length);
  });

  it('stores a series once, and empties itself when full', () => {
    const cache = new SeriesKeyCache({ maxSeries: 2 });
    cache.keyOf('m', { a: '1', b: '2' });
    cache.keyOf('m', { b: '2', a: '1' });
    expect(cache.size).toBe(2); // another order, another path
    cache.keyOf('m', { a: '1', b: '2' });
    expect(cache.size).toBe(2);
    expect(cache.keyOf('n', {})).toBe('n');
    expect(cache.size).toBe(1);
  });

  it('never stores a key longer than its bound', () => {
    const cache = new SeriesKeyCache({ maxKeyLength: 10 });
    expect(cache.keyOf('metric', { host: 'a-long-host-name' })).toBe(
      'metric|host=a-long-host-name',
    );
    expect(cache.size).toBe(0);
    expect(cache.keyOf('m', { h: 'a' })).toBe('m|h=a');
    expect(cache.size).toBe(1);
  });

  it('does not take a value for a tag key, or fewer tags for more', () => {
    const cache = new SeriesKeyCache();
    expect(cache.keyOf('m', { a: 'b' })).toBe('m|a=b');
    expect(cache.keyOf('m', { a: 'b', c: 'd' })).toBe('m|a=b,c=d');
    expect(cache.keyOf('m', { b: 'a' })).toBe('m|b=a');
    expect(cache.keyOf('m', {})).toBe('m');
    const proto = Object.fromEntries([['__proto__', 'x']]) as Record<string, string>;
    expect(cache.keyOf('m', proto)).toBe('m|__proto__=x');
    expect(cache.keyOf('m', { a: 'b' })).toBe('m|a=b');
  });
});
