import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseSeriesKey, seriesKey, SeriesKeyError, TickErrorCode } from '../../src/index.js';
import { fragmentTagSets, KEY_FRAGMENTS } from './key-fragments.js';

describe('seriesKey', () => {
  it.each([
    ['no tags', 'cpu.load', {}, 'cpu.load'],
    ['tags sorted by key', 'cpu.load', { region: 'eu', host: 'a' }, 'cpu.load|host=a,region=eu'],
    ['code-unit order, not locale order', 'm', { b: '1', B: '2', ä: '3' }, 'm|B=2,b=1,ä=3'],
    ['a pipe in the metric', 'a|b', { k: 'v' }, 'a\\|b|k=v'],
    ['every separator in a value', 'm', { k: '|,=\\:' }, 'm|k=\\|\\,\\=\\\\\\:'],
    ['separators in a key', 'm', { 'a=b': 'c,d' }, 'm|a\\=b=c\\,d'],
    ['a colon (the bucket id separator)', 'speed:kmh', { 'seg:1': 'x' }, 'speed\\:kmh|seg\\:1=x'],
    ['empty tag key and value', 'm', { '': '' }, 'm|='],
    ['empty metric', '', { a: '1' }, '|a=1'],
    ['non-ASCII kept as is', 'température', { ville: 'Zürich' }, 'température|ville=Zürich'],
  ])('%s', (_label, metric, tags, key) => {
    expect(seriesKey(metric, tags)).toBe(key);
    expect(parseSeriesKey(key)).toEqual({ metric, tags });
  });

  it('does not depend on the order tags were added in', () => {
    expect(seriesKey('m', { z: '1', a: '2', m: '3' })).toBe(
      seriesKey('m', { a: '2', m: '3', z: '1' }),
    );
  });

  it('keeps a tag named __proto__ as a tag', () => {
    const tags = Object.fromEntries([['__proto__', 'x']]) as Record<string, string>;
    const key = seriesKey('m', tags);
    expect(key).toBe('m|__proto__=x');
    const parsed = parseSeriesKey(key);
    expect(Object.keys(parsed.tags)).toEqual(['__proto__']);
    expect(parsed.tags.__proto__).toBe('x');
  });

  it.each([
    ['a dangling backslash', 'm\\'],
    ['an escape of an ordinary character', 'm\\n'],
    ['a pipe with no tags after it', 'm|'],
    ['a tag without a value', 'm|a'],
    ['a trailing comma', 'm|a=1,'],
    ['two pipes', 'm|a=1|b=2'],
    ['two equals signs', 'm|a=1=2'],
    ['an unescaped colon', 'm:1'],
    ['unsorted tags', 'm|b=1,a=2'],
    ['a repeated tag key', 'm|a=1,a=2'],
  ])('parse refuses %s', (_label, key) => {
    const err: unknown = (() => {
      try {
        return parseSeriesKey(key);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SeriesKeyError);
    expect(err).toMatchObject({ code: TickErrorCode.InvalidSeriesKey, retriable: false, key });
  });
});

// Strings over an alphabet rich in separators find escaping bugs quickly; full Unicode strings
// cover everything else.
const SEPARATOR_HEAVY = fc.constantFrom('a', 'b', '|', ',', '=', '\\', ':', ' ', 'é');
const part = fc.oneof(
  fc.string({ unit: SEPARATOR_HEAVY, maxLength: 6 }),
  fc.string({ unit: 'grapheme' }),
);
const series = fc.record({
  metric: part,
  tags: fc.dictionary(part, part, { maxKeys: 5 }),
});

describe('seriesKey properties', () => {
  it('parseSeriesKey inverts seriesKey', () => {
    fc.assert(
      fc.property(series, ({ metric, tags }) => {
        expect(parseSeriesKey(seriesKey(metric, tags))).toEqual({ metric, tags });
      }),
      { numRuns: 2000 },
    );
  });

  it('gives distinct series distinct keys', () => {
    fc.assert(
      fc.property(series, series, (a, b) => {
        const same = a.metric === b.metric && sameTags(a.tags, b.tags);
        expect(seriesKey(a.metric, a.tags) === seriesKey(b.metric, b.tags)).toBe(same);
      }),
      { numRuns: 5000 },
    );
  });

  it('gives distinct keys to every series built from key fragments (exhaustive)', () => {
    const fragments = KEY_FRAGMENTS;
    const tagSets = fragmentTagSets();
    const keys = new Set<string>();
    const naiveKeys = new Set<string>();
    let count = 0;
    for (const metric of fragments) {
      for (const tags of tagSets) {
        count += 1;
        keys.add(seriesKey(metric, tags));
        const pairs = Object.keys(tags)
          .sort()
          .map((k) => `${k}=${tags[k]}`);
        naiveKeys.add([metric, pairs.join(',')].join('|'));
      }
    }
    expect(count).toBe(fragments.length * tagSets.length);
    expect(keys.size).toBe(count);
    // The universe does hold inputs that only the escaping tells apart.
    expect(naiveKeys.size).toBeLessThan(count);
  });

  it("never makes one series' bucket-id prefix a prefix of another series' bucket id", () => {
    fc.assert(
      fc.property(series, series, (a, b) => {
        fc.pre(a.metric !== b.metric || !sameTags(a.tags, b.tags));
        const bucketB = `${seriesKey(b.metric, b.tags)}:202611211530`;
        expect(bucketB.startsWith(`${seriesKey(a.metric, a.tags)}:`)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts only canonical keys: whatever parses re-encodes to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: SEPARATOR_HEAVY, maxLength: 12 }), (key) => {
        let parsed;
        try {
          parsed = parseSeriesKey(key);
        } catch (err) {
          expect(err).toBeInstanceOf(SeriesKeyError);
          return;
        }
        expect(seriesKey(parsed.metric, parsed.tags)).toBe(key);
      }),
      { numRuns: 5000 },
    );
  });
});

function sameTags(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}
