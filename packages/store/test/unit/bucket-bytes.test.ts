import { describe, expect, it } from '@jest/globals';
import { BinList, toBins } from '@tickertape/buckets';
import fc from 'fast-check';
import { BSON, Long, type Document } from 'mongodb';
import { decodeBucket } from '../../src/mongo/reads/bucket-bytes.js';

/** What the driver's decoder gives, with every sketch (BinList or object) as an object. */
function asDriverWould(doc: unknown, sketches: boolean): unknown {
  if (doc instanceof BinList) return toBins(doc);
  if (Array.isArray(doc)) return doc.map((each) => asDriverWould(each, sketches));
  if (doc instanceof Date || doc === null || typeof doc !== 'object') return doc;
  return Object.fromEntries(
    Object.entries(doc).map(([key, value]) => [key, asDriverWould(value, sketches)]),
  );
}

const mark = fc.record({
  t: fc.integer({ min: 0, max: 2 ** 45 }),
  // Offsets past 2^31 are int64 when a writer stored a Long.
  o: fc.oneof(fc.integer(), fc.constant(2 ** 40), fc.constant(Long.fromNumber(2 ** 40))),
  v: fc.oneof(fc.double({ noNaN: true }), fc.string()),
});
const bins = fc.dictionary(
  fc.oneof(fc.integer({ min: -3000, max: 3000 }).map(String), fc.constantFrom('z', 'n12', 'a50_7')),
  fc.integer({ min: 1, max: 10_000 }),
);
const aggregate = fc.record(
  {
    n: fc.integer({ min: 0, max: 1e6 }),
    sum: fc.double({ noNaN: true }),
    min: fc.double({ noNaN: true }),
    max: fc.double({ noNaN: true }),
    first: mark,
    last: mark,
    sq: fc.double({ noNaN: true, min: 0 }),
    q: bins,
  },
  { requiredKeys: ['n', 'sum'] },
);
const field = fc.record(
  {
    n: fc.integer({ min: 0, max: 1e6 }),
    sum: fc.double(),
    q: bins,
    m: fc.dictionary(fc.integer({ min: 0, max: 59 }).map(String), aggregate),
    msum: fc.dictionary(fc.integer({ min: 0, max: 59 }).map(String), fc.double()),
  },
  { requiredKeys: ['n'] },
);
const bucket = fc.record(
  {
    _id: fc.string(),
    series: fc.string({ unit: 'grapheme' }),
    start: fc.date({ min: new Date(0), max: new Date(2 ** 42) }),
    n: fc.integer(),
    tags: fc.dictionary(
      fc.string({ minLength: 1, unit: 'grapheme' }).filter((k) => !k.startsWith('$')),
      fc.string({ unit: 'grapheme' }),
    ),
    f: fc.dictionary(
      fc.string({ minLength: 1 }).filter((k) => !k.startsWith('$')),
      field,
    ),
    c: fc.dictionary(
      fc.constantFrom('q', 'speed', 'q,speed'),
      fc.dictionary(fc.integer({ min: 0, max: 59 }).map(String), fc.integer({ min: 0 })),
    ),
    ok: fc.boolean(),
    gone: fc.constant(null),
    list: fc.array(fc.oneof(fc.integer(), fc.string())),
  },
  { requiredKeys: ['_id'] },
);

describe('decodeBucket', () => {
  it('decodes any bucket as the driver does, sketches as lists of the same bins', () => {
    fc.assert(
      fc.property(bucket, (doc) => {
        const bytes = BSON.serialize(doc);
        expect(asDriverWould(decodeBucket(bytes), true)).toEqual(
          asDriverWould(BSON.deserialize(bytes), true),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('gives the sketches of totals and of sub-slots as lists, nothing else', () => {
    const doc = {
      series: 's',
      f: {
        speed: { n: 3, q: { 160: 2, n4: 1 }, m: { 5: { n: 3, q: { 160: 2, n4: 1 } } } },
        q: { n: 1, first: { t: 1, o: 2, v: 3 }, m: { 1: { n: 1, q: { 7: 1 } } } },
      },
      c: { q: { 5: 3 } },
    };
    const decoded = decodeBucket(BSON.serialize(doc)) as {
      f: Record<string, { q?: unknown; m: Record<string, { q: unknown }> }>;
      c: Record<string, unknown>;
    };
    expect(decoded.f.speed!.q).toEqual(new BinList(['160', 'n4'], [2, 1]));
    expect(decoded.f.speed!.m['5']!.q).toEqual(new BinList(['160', 'n4'], [2, 1]));
    // A numeric field named `q` is a field, its sub-slots' sketches lists; counts stay an object.
    expect(decoded.f.q!.q).toBeUndefined();
    expect(decoded.f.q!.m['1']!.q).toEqual(new BinList(['7'], [1]));
    expect(decoded.c).toEqual({ q: { 5: 3 } });
  });

  it('leaves to the driver what it does not read the same way', () => {
    const cases: Document[] = [
      { big: Long.fromString('9007199254740993') },
      { tags: JSON.parse('{"__proto__": {"polluted": true}}') as Document },
      { id: new BSON.ObjectId() },
      { f: { x: { n: 1, q: { 1: 'not a count' } } } },
      { ref: { $ref: 'c', $id: 1 } },
    ];
    for (const doc of cases) {
      const bytes = BSON.serialize(doc);
      expect(decodeBucket(bytes)).toEqual(BSON.deserialize(bytes));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports corrupt bytes as the driver does', () => {
    const bytes = BSON.serialize({ a: 'text', b: { c: 1 } });
    const cut = bytes.subarray(0, bytes.length - 3);
    expect(() => decodeBucket(cut)).toThrow(BSON.BSONError);
  });
});
