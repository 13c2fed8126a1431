/**
 * The checker's fold and the workers' fold are two implementations of one definition. Here they
 * must agree: the workers' coalesced update for one flush, applied to an empty bucket, equals
 * the checker's expected bucket, for random ticks at every level.
 */
import { describe, expect, it } from '@jest/globals';
import { foldBatch, guardedUpdate, LEVELS, type FoldInput } from '@tickertape/buckets';
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

describe('the checker folds as the workers do', () => {
  it.each(LEVELS)('%s: one flush applied to empty buckets equals the expected buckets', (level) => {
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
        const inputs: FoldInput[] = ticks.map((t) => ({
          seriesKey: t.series,
          metric: t.metric,
          tags: t.tags,
          ts: t.ts,
          fields: t.fields,
          strings: t.strings,
          kafkaPartition: t.partition,
          offset: t.offset,
        }));
        const expected = expectedBuckets(level, ticks);
        const deltas = [...foldBatch(level, inputs).values()];
        expect(deltas.map((d) => d.id).sort()).toEqual([...expected.keys()].sort());
        for (const delta of deltas) {
          const stored = applyToEmpty(guardedUpdate(delta).update);
          expect(compareDocuments(level, delta.id, expected.get(delta.id), stored)).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
