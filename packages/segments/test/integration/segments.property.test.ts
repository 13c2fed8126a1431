import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import { TestStack } from '@tickertape/testing';
import fc from 'fast-check';
import type { Db } from 'mongodb';
import {
  SegmentWriter,
  listSegmentDays,
  readRawPoints,
  segmentCollection,
  seriesIdRange,
  type SegmentDocument,
  type SegmentPoint,
} from '../../src/index.js';

const MAX_POINTS = 7;
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
  let stack: TestStack;
  let db: Db;
  let run = 0;

  beforeAll(async () => {
    stack = await TestStack.open('segments-property');
    db = stack.database();
  });
  afterAll(() => stack.close());

  it('reads back exactly the published points of any range, plus the nearest on each side', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(gap, value), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 3 }),
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
        async (gapsAndValues, partition, flushes, ranges) => {
          run += 1;
          const series = `irregular|run=${run}`;
          let ts = BASE;
          const ticks: FoldInput[] = gapsAndValues.map(([g, v], offset) => ({
            seriesKey: series,
            metric: 'irregular',
            tags: { run: String(run) },
            ts: (ts += g),
            fields: { value: v },
            strings: {},
            kafkaPartition: partition,
            offset: 100 + offset,
          }));
          // Flushes of varying size, each redelivering a few offsets (a crash before the commit),
          // some by a freshly started writer that knows nothing of the heads.
          let writer = new SegmentWriter(db, {
            maxPoints: MAX_POINTS,
            writeOnlyOnChange: new Set(),
          });
          let from = 0;
          for (let i = 0; from < ticks.length; i++) {
            const [size, rewind, restart] = flushes[i % flushes.length]!;
            if (restart)
              writer = new SegmentWriter(db, {
                maxPoints: MAX_POINTS,
                writeOnlyOnChange: new Set(),
              });
            const end = Math.min(ticks.length, from + size);
            await writer.apply(ticks.slice(Math.max(0, from - rewind), end));
            from = end;
          }

          const published: SegmentPoint[] = ticks.map((t) => ({
            t: t.ts,
            v: { value: t.fields.value! },
          }));
          const segments: SegmentDocument[] = [];
          for (const day of await listSegmentDays(db))
            segments.push(
              ...(await db
                .collection<SegmentDocument>(segmentCollection(day))
                .find({ _id: seriesIdRange(series) })
                .sort({ _id: 1 })
                .toArray()),
            );
          // Stored once each, in order, in bounded single-day segments chained by prevEnd/nextStart.
          expect(segments.flatMap((s) => s.t)).toEqual(published.map((p) => p.t));
          for (const [i, s] of segments.entries()) {
            expect(s.n).toBe(s.t.length);
            expect(s.n).toBeLessThanOrEqual(MAX_POINTS);
            expect(new Date(s.start).toISOString().slice(0, 10)).toBe(
              new Date(s.end).toISOString().slice(0, 10),
            );
            expect(s.prevEnd).toBe(i === 0 ? -Infinity : segments[i - 1]!.end);
            expect(s.nextStart).toBe(i === segments.length - 1 ? Infinity : segments[i + 1]!.start);
          }
          for (const [offset, length] of ranges) {
            const fromMs = BASE + offset;
            const toMs = fromMs + length;
            const result = await readRawPoints(
              db,
              { series, fromMs, toMs },
              { maxDocuments: 10_000 },
            );
            expect(result.points).toEqual(published.filter((p) => p.t >= fromMs && p.t < toMs));
            expect(result.before).toEqual(published.filter((p) => p.t < fromMs).at(-1) ?? null);
            expect(result.after).toEqual(published.find((p) => p.t >= toMs) ?? null);
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 240_000);
});
