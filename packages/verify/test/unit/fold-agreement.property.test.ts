/**
 * The checker's fold and the workers' fold are two implementations of one definition. Here they
 * must agree: the workers' coalesced update for one flush, applied to an empty bucket, equals
 * the checker's expected bucket, for random ticks at every level. And for one series spread over
 * several partitions (producers with different partitioners): the per-partition updates, applied
 * in any order with MongoDB's operator semantics, equal the checker's bucket.
 */
import { describe, expect, it } from '@jest/globals';
import { foldBatch, LevelPolicy, LEVELS, type FoldInput } from '@tickertape/buckets';
import { guardedUpdate } from '@tickertape/store';
import fc from 'fast-check';
import { compareDocuments, expectedBuckets, type TruthTick } from '../../src/index.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-21T22:00:00Z');
const SERIES = ['m|s=1', 'm|s=2', 'n|s=3'] as const;

/** What an update does to a missing document (upsert): every operator sets its path. */
function applyToEmpty(update: ReturnType<typeof guardedUpdate>['update']): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const part of [update.$setOnInsert, update.$inc, update.$min, update.$max]) {
    for (const [path, value] of Object.entries(part)) {
      const keys = path.split('.');
      let at = doc;
      for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
      at[keys[keys.length - 1]!] = value;
    }
  }
  return doc;
}

const tickArb = fc.record({
  series: fc.integer({ min: 0, max: SERIES.length - 1 }),
  ts: fc.integer({ min: T0, max: T0 + 3 * HOUR }),
  a: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
  b: fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  label: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }),
});

/** What a worker hands its writer for the record the checker read as `t`. */
function foldInput(t: TruthTick): FoldInput {
  return {
    seriesKey: t.series,
    metric: t.metric,
    tags: t.tags,
    ts: t.ts,
    fields: t.fields,
    strings: t.strings,
    kafkaPartition: t.partition,
    offset: t.offset,
  };
}

type Doc = Record<string, unknown>;

/** MongoDB's comparison for what the updates hold: numbers, strings (UTF-8 bytes), {t, o, v}. */
function bsonCompare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string')
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
  const x = a as Doc;
  const y = b as Doc;
  // Embedded documents: field by field, in order (every mark is written as {t, o, v}).
  for (const key of ['t', 'o', 'v']) {
    const order = bsonCompare(x[key], y[key]);
    if (order !== 0) return order;
  }
  return 0;
}

/** One update applied to a document as MongoDB does ($setOnInsert only when it is new). */
function applyUpdate(doc: Doc, update: ReturnType<typeof guardedUpdate>['update'], isNew: boolean) {
  const at = (path: string): [Doc, string] => {
    const keys = path.split('.');
    let node = doc;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Doc;
    return [node, keys[keys.length - 1]!];
  };
  if (isNew)
    for (const [path, value] of Object.entries(update.$setOnInsert)) {
      const [node, key] = at(path);
      node[key] = value;
    }
  for (const [path, value] of Object.entries(update.$inc)) {
    const [node, key] = at(path);
    node[key] = ((node[key] as number | undefined) ?? 0) + value;
  }
  for (const [op, keep] of [
    ['$min', -1],
    ['$max', 1],
  ] as const)
    for (const [path, value] of Object.entries(update[op])) {
      const [node, key] = at(path);
      if (node[key] === undefined || bsonCompare(value, node[key]) === keep) node[key] = value;
    }
}

/**
 * Every level in its own layout, and the hour level in the compact form (the level policy); each
 * also with both metrics sketched and `b` weighted by `a`.
 */
const FORMS = [
  ...LEVELS.map((level) => [level, level, false] as const),
  ['compact hour', 'hour', true] as const,
].flatMap(([form, level, compact]) => [
  [form, level, { compact, extras: false }] as const,
  [`${form}, sketched and weighted`, level, { compact, extras: true }] as const,
]);
const compactIf = ({ compact, extras }: { compact: boolean; extras: boolean }) => {
  const metrics = ['m', 'n'];
  return new LevelPolicy({
    hour: { compact: compact ? metrics : [] },
    sketch: extras ? metrics : [],
    weights: extras ? metrics.map((metric) => ({ metric, field: 'b', by: 'a' })) : [],
  });
};

describe('the checker folds as the workers do', () => {
  it.each(FORMS)(
    '%s: one series on several partitions, flushes applied in any order, equals the expected bucket',
    (_form, level, compact) => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              partition: fc.integer({ min: 0, max: 2 }),
              // Few distinct times and small per-partition offsets: ties on (t, o) across
              // partitions are common, and the value must break them.
              ts: fc.integer({ min: 0, max: 5 }).map((i) => T0 + i * 20 * 60_000),
              b: fc.integer({ min: -3, max: 3 }),
              label: fc.option(fc.constantFrom('x', 'y', '\uFFFD', '\u{1F600}'), {
                nil: undefined,
              }),
            }),
            { minLength: 1, maxLength: 40 },
          ),
          fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
          fc.func(fc.integer()),
          (raw, sizes, shuffle) => {
            const offsets = [0, 0, 0];
            const ticks = raw.map((r): TruthTick => {
              const strings: Record<string, string> = {};
              if (r.label !== undefined) strings.label = r.label;
              return {
                series: 'm|s=1',
                metric: 'm',
                tags: { s: '1' },
                ts: r.ts,
                fields: { b: r.b },
                strings,
                partition: r.partition,
                offset: offsets[r.partition]!++,
              };
            });
            // Each partition in flushes of its own, in offset order; the flushes of different
            // partitions land in a random interleaving (two workers, or one taking turns).
            const flushes: FoldInput[][] = [];
            for (const partition of [0, 1, 2]) {
              const own = ticks.filter((t) => t.partition === partition);
              for (let i = 0, k = 0; i < own.length; i += sizes[k++ % sizes.length]!) {
                flushes.push(own.slice(i, i + sizes[k % sizes.length]!).map(foldInput));
              }
            }
            const order = flushes
              .map((flush, i) => ({ flush, key: shuffle(i) }))
              .sort((a, b) => a.key - b.key);
            const stored = new Map<string, Doc>();
            for (const { flush } of order)
              for (const delta of foldBatch(level, flush, compactIf(compact)).values()) {
                const doc = stored.get(delta.id) ?? {};
                applyUpdate(doc, guardedUpdate(delta).update, !stored.has(delta.id));
                stored.set(delta.id, doc);
              }
            const expected = expectedBuckets(level, ticks, compactIf(compact));
            expect([...stored.keys()].sort()).toEqual([...expected.keys()].sort());
            for (const [id, doc] of stored)
              expect(compareDocuments(level, id, expected.get(id), doc)).toEqual([]);
          },
        ),
        { numRuns: 200 },
      );
    },
    30_000,
  );

  it.each(FORMS)(
    '%s: one flush applied to empty buckets equals the expected buckets',
    (_form, level, compact) => {
      fc.assert(
        fc.property(fc.array(tickArb, { minLength: 1, maxLength: 60 }), (raw) => {
          const offsets = [0, 0, 0];
          const ticks: TruthTick[] = raw.map((r) => {
            const series = SERIES[r.series]!;
            // Keyed by series: one series, one Kafka partition.
            const partition = r.series;
            const fields: Record<string, number> = { b: r.b };
            if (r.a !== undefined) fields.a = r.a;
            const strings: Record<string, string> = {};
            if (r.label !== undefined) strings.label = r.label;
            return {
              series,
              metric: series.slice(0, 1),
              tags: { s: series.slice(-1) },
              ts: r.ts,
              fields,
              strings,
              partition,
              offset: offsets[partition]!++,
            };
          });
          const inputs = ticks.map(foldInput);
          const expected = expectedBuckets(level, ticks, compactIf(compact));
          const deltas = [...foldBatch(level, inputs, compactIf(compact)).values()];
          expect(deltas.map((d) => d.id).sort()).toEqual([...expected.keys()].sort());
          for (const delta of deltas) {
            const stored = applyToEmpty(guardedUpdate(delta).update);
            expect(compareDocuments(level, delta.id, expected.get(delta.id), stored)).toEqual([]);
          }
        }),
        { numRuns: 200 },
      );
    },
    // 200 runs take 1-2 s on a quiet machine; beside a soak or a CI run they once took over 5.
    30_000,
  );
});
