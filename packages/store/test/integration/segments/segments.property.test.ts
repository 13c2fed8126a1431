import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import fc from 'fast-check';
import {
  SegmentWriter,
  partitionOfSegmentId,
  type SegmentDocument,
  type SegmentPoint,
  type SegmentStore,
} from '@tickertape/segments';
import { StoreStack } from '../../support/store-stack.js';
import { testDatabase } from '../../../src/mongo/test-database.js';

const MAX_POINTS = 7;

interface ChainPoint extends SegmentPoint {
  p: number;
}
const BASE = Date.parse('2026-11-20T20:00:00Z');

/** Gaps between points: bursts (same millisecond or a few), seconds, minutes, hours of silence. */
const gap = fc.oneof(
  fc.integer({ min: 0, max: 3 }),
  fc.integer({ min: 1, max: 5000 }),
  fc.integer({ min: 60_000, max: 3_600_000 }),
  fc.integer({ min: 3_600_000, max: 20 * 3_600_000 }),
);
// -0 is left out: mongo-java-server stores it as 0 (docs/local-stack.md); real MongoDB keeps it.
const value = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((v) => !Object.is(v, -0)),
);

describe('segment store: exact raw points with their outer neighbours (property, real database)', () => {
  let stack: StoreStack;
  let store: SegmentStore;
  let run = 0;

  beforeAll(async () => {
    // Through openMongoStores, as the services get it.
    stack = await StoreStack.open('segments-property');
    ({ segments: store } = await stack.stores.database(testDatabase(stack.stack).databaseName));
  });
  afterAll(() => stack.close());

  it('reads back exactly the published points of any range, plus the nearest on each side', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Per tick: gap, value, which of the series' partitions it is published to, whether it
        // carries the second field, and how far its time lags (late within its own partition).
        fc.array(
          fc.tuple(
            gap,
            value,
            fc.integer({ min: 0, max: 2 }),
            fc.boolean(),
            fc.oneof(fc.constant(0), fc.integer({ min: -3000, max: 0 })),
          ),
          { minLength: 1, maxLength: 80 },
        ),
        fc.integer({ min: 0, max: 3 }),
        // How many partitions the series is spread over: 1 as a keyed producer does, 2 or 3
        // when producers with different partitioners publish it (docs/producing.md).
        fc.integer({ min: 1, max: 3 }),
        fc.array(
          fc.tuple(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 0, max: 10 }), fc.boolean()),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.array(
          fc.tuple(
            fc.integer({ min: -3_600_000, max: 50 * 3_600_000 }),
            fc.integer({ min: 1, max: 30 * 3_600_000 }),
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        async (drawn, firstPartition, spread, flushes, ranges) => {
          run += 1;
          const series = `irregular|run=${run}`;
          let ts = BASE;
          const offsets = new Map<number, number>();
          const ticks: FoldInput[] = drawn.map(([g, v, which, carriesW, lag]) => {
            const partition = firstPartition + (which % spread);
            const offset = offsets.get(partition) ?? 100;
            offsets.set(partition, offset + 1);
            ts += g;
            const fields: Record<string, number> = { value: v };
            if (carriesW) fields.w = 1;
            return {
              seriesKey: series,
              metric: 'irregular',
              tags: { run: String(run) },
              ts: ts + lag,
              fields,
              strings: {},
              kafkaPartition: partition,
              offset,
            };
          });
          // Flushes of varying size, each redelivering a few offsets (a crash before the commit),
          // some by a freshly started writer that knows nothing of the heads.
          const newWriter = () =>
            new SegmentWriter(store, { maxPoints: MAX_POINTS, writeOnlyOnChange: new Set() });
          let writer = newWriter();
          let splits = 0;
          let from = 0;
          for (let i = 0; from < ticks.length; i++) {
            const [size, rewind, restart] = flushes[i % flushes.length]!;
            if (restart) writer = newWriter();
            const end = Math.min(ticks.length, from + size);
            splits += (await writer.apply(ticks.slice(Math.max(0, from - rewind), end))).split
              .length;
            from = end;
          }

          // Each partition's chain keeps its ticks in offset order, less those older than the
          // chain's newest point; reads merge the chains by time, then partition.
          const chains = new Map<number, ChainPoint[]>();
          for (const t of ticks) {
            const chain = chains.get(t.kafkaPartition) ?? [];
            chains.set(t.kafkaPartition, chain);
            if (chain.length > 0 && t.ts < chain.at(-1)!.t) continue;
            chain.push({ t: t.ts, v: { ...t.fields }, p: t.kafkaPartition });
          }
          const merged = [...chains.values()].flat().sort((a, b) => a.t - b.t || a.p - b.p);
          const segments: SegmentDocument[] = [];
          for (const day of await store.listDays())
            for await (const segment of store.scanDay(day))
              if (segment.series === series) segments.push(segment);
          // Per chain: stored once each, in order, in bounded single-day segments chained by
          // prevEnd/nextStart. A chain opened beside another is reported once.
          expect(splits).toBe(chains.size - 1);
          for (const [partition, points] of chains) {
            const own = segments
              .filter((s) => partitionOfSegmentId(s._id) === partition)
              .sort((a, b) => a.day.localeCompare(b.day) || (a._id < b._id ? -1 : 1));
            expect(own.flatMap((s) => s.t)).toEqual(points.map((p) => p.t));
            for (const [i, s] of own.entries()) {
              expect(s.p).toBe(partition);
              expect(s.n).toBe(s.t.length);
              expect(s.n).toBeLessThanOrEqual(MAX_POINTS);
              expect(new Date(s.start).toISOString().slice(0, 10)).toBe(
                new Date(s.end).toISOString().slice(0, 10),
              );
              expect(s.prevEnd).toBe(i === 0 ? -Infinity : own[i - 1]!.end);
              expect(s.nextStart).toBe(i === own.length - 1 ? Infinity : own[i + 1]!.start);
            }
          }
          expect(segments).toHaveLength(new Set(segments.map((s) => s._id)).size);
          for (const [offset, length] of ranges) {
            const fromMs = BASE + offset;
            const toMs = fromMs + length;
            for (const field of [undefined, 'w']) {
              const line = merged
                .filter((p) => field === undefined || p.v[field] !== undefined)
                .map((p) => ({ t: p.t, v: field === undefined ? p.v : { [field]: p.v[field]! } }));
              const result = await store.readPoints(
                { series, fromMs, toMs, ...(field === undefined ? {} : { field }) },
                { maxDocuments: 10_000 },
              );
              expect(result.points).toEqual(line.filter((p) => p.t >= fromMs && p.t < toMs));
              expect(result.before).toEqual(line.filter((p) => p.t < fromMs).at(-1) ?? null);
              expect(result.after).toEqual(line.find((p) => p.t >= toMs) ?? null);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);
});
