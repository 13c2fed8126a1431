/**
 * Compatibility: the partitions' secondary indexes (`start_1`, `metric_1_start_1_series_1`).
 * mongo-java-server ignores non-unique indexes; our launcher keeps them and walks them
 * (infra/local/mongo/StandInSecondaryIndex.java, IndexPlan.java, IndexScan.java), so the seed's
 * window by metric reads `limit + 1` buckets of a slot instead of sorting the partition. A walk
 * that is wrong is worse than a slow scan: this test asks random filters, sorts, skips and limits
 * of the shapes the index serves, on documents that are inserted, moved between slots, deleted
 * and given array values, and requires exactly what a scan in JavaScript finds. The speed is
 * measured by the volume test (scripts/soak.sh, docs/local-stack.md "Volume").
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Collection, Document, Filter, Sort } from 'mongodb';
import { TestStack } from '../../../src/index.js';
import { compatDatabase } from '../../support/database.js';

interface Bucket extends Document {
  _id: string;
  metric: string | string[] | null;
  start: Date;
  series: string;
  n: number;
}

const METRICS = ['traffic', 'power', 'weather'];
const SLOTS = 6;
const SERIES = 30;
const BASE = Date.UTC(2026, 10, 21, 5, 0);
const slotStart = (slot: number) => new Date(BASE + slot * 60_000);

/** Documents shaped like a minute partition's buckets, with a few odd ones the index must keep. */
function buckets(): Bucket[] {
  const docs: Bucket[] = [];
  for (const metric of METRICS)
    for (let slot = 0; slot < SLOTS; slot++)
      for (let s = 0; s < SERIES; s++) {
        const series = `${metric}|s${String(s).padStart(2, '0')}`;
        docs.push({
          _id: `${series}:${slot}`,
          metric,
          start: slotStart(slot),
          series,
          n: (s * 7 + slot) % 5,
        });
      }
  // An indexed array (two entries, returned once), a null and a missing metric.
  docs.push({
    _id: 'multi:0',
    metric: ['power', 'traffic'],
    start: slotStart(2),
    series: 'multi',
    n: 3,
  });
  docs.push({ _id: 'none:0', metric: null, start: slotStart(2), series: 'none', n: 1 });
  return docs;
}

type Bound = { $gt?: Date; $gte?: Date; $lt?: Date; $lte?: Date };

interface Ask {
  filter: Filter<Bucket>;
  sort?: Sort;
  /** Keys that make the sort total (absent: order unspecified, compared as a set). */
  total: boolean;
  skip: number;
  limit: number;
}

const slot = fc.integer({ min: -1, max: SLOTS });
const bound: fc.Arbitrary<Bound> = fc
  .record({ $gt: slot, $gte: slot, $lt: slot, $lte: slot }, { requiredKeys: [] })
  .filter((b) => Object.keys(b).length > 0)
  .map((b) => Object.fromEntries(Object.entries(b).map(([op, s]) => [op, slotStart(s)])));

const ask: fc.Arbitrary<Ask> = fc
  .record({
    metric: fc.option(fc.constantFrom(...METRICS, 'absent'), { nil: undefined }),
    start: fc.oneof(fc.constant(undefined), slot.map(slotStart), bound),
    minN: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    order: fc.constantFrom(
      'none',
      'series',
      'series-desc',
      'start-series',
      'start-series-desc',
      'n-id',
    ),
    skip: fc.integer({ min: 0, max: 4 }),
    limit: fc.integer({ min: 0, max: 25 }),
  })
  .map(({ metric, start, minN, order, skip, limit }): Ask => {
    const filter: Filter<Bucket> = {};
    if (metric !== undefined) filter.metric = metric;
    if (start !== undefined) filter.start = start;
    if (minN !== undefined) filter.n = { $gte: minN };
    const exactStart = start instanceof Date;
    switch (order) {
      case 'series':
        return { filter, sort: { series: 1 }, total: exactStart, skip, limit };
      case 'series-desc':
        return { filter, sort: { series: -1 }, total: exactStart, skip, limit };
      case 'start-series':
        return { filter, sort: { start: 1, series: 1 }, total: true, skip, limit };
      case 'start-series-desc':
        return { filter, sort: { start: -1, series: -1 }, total: true, skip, limit };
      case 'n-id':
        return { filter, sort: { n: -1, _id: 1 }, total: true, skip, limit };
      default:
        return { filter, total: false, skip, limit };
    }
  });

function hasMetric(doc: Bucket, metric: string): boolean {
  return Array.isArray(doc.metric) ? doc.metric.includes(metric) : doc.metric === metric;
}

/** What a scan finds: the filter applied in JavaScript to every document. */
function expected(docs: readonly Bucket[], { filter, sort }: Ask): Bucket[] {
  const matches = docs.filter((doc) => {
    const metric = filter.metric as string | undefined;
    if (metric !== undefined && !hasMetric(doc, metric)) return false;
    const start = filter.start as Date | Bound | undefined;
    const at = doc.start.getTime();
    if (start instanceof Date) {
      if (at !== start.getTime()) return false;
    } else if (start) {
      if (start.$gt && !(at > start.$gt.getTime())) return false;
      if (start.$gte && !(at >= start.$gte.getTime())) return false;
      if (start.$lt && !(at < start.$lt.getTime())) return false;
      if (start.$lte && !(at <= start.$lte.getTime())) return false;
    }
    const n = filter.n as { $gte: number } | undefined;
    return n === undefined || doc.n >= n.$gte;
  });
  const keys = Object.entries((sort ?? {}) as Record<string, 1 | -1>);
  return matches.sort((a, b) => {
    for (const [key, direction] of keys) {
      const x = a[key] as string | number | Date;
      const y = b[key] as string | number | Date;
      if (x < y) return -direction;
      if (x > y) return direction;
    }
    return 0;
  });
}

describe('MongoDB secondary indexes on the stand-in', () => {
  let stack: TestStack;
  let col: Collection<Bucket>;
  let docs: Bucket[];

  beforeAll(async () => {
    stack = await TestStack.open('compat-mongo-secondary-index');
    col = compatDatabase(stack).db.collection<Bucket>('rollup_minute_20261121');
    docs = buckets();
    // Half before the indexes exist (built over them), half after (maintained on insert).
    const half = Math.floor(docs.length / 2);
    await col.insertMany(docs.slice(0, half));
    await col.createIndexes([
      { name: 'start_1', key: { start: 1 } },
      { name: 'metric_1_start_1_series_1', key: { metric: 1, start: 1, series: 1 } },
    ]);
    await col.insertMany(docs.slice(half));
  }, 60_000);
  afterAll(() => stack.close());

  async function agrees(question: Ask): Promise<void> {
    const want = expected(docs, question);
    const cursor = col.find(question.filter, { skip: question.skip, limit: question.limit });
    if (question.sort) cursor.sort(question.sort);
    const got = await cursor.toArray();
    const from = Math.min(question.skip, want.length);
    const to = question.limit > 0 ? Math.min(from + question.limit, want.length) : want.length;
    if (question.total) {
      expect(got).toEqual(want.slice(from, to));
    } else {
      // Order unspecified: the right number of documents, each a match, none twice.
      expect(got).toHaveLength(to - from);
      const ids = got.map((doc) => doc._id);
      expect(new Set(ids).size).toBe(ids.length);
      const wanted = new Set(want.map((doc) => doc._id));
      for (const id of ids) expect(wanted.has(id)).toBe(true);
    }
    expect(await col.countDocuments(question.filter)).toBe(want.length);
  }

  it('answers random filters, sorts, skips and limits exactly as a scan', async () => {
    await fc.assert(fc.asyncProperty(ask, agrees), { numRuns: 150 });
  }, 120_000);

  it('follows documents that move between slots, lose their metric, are deleted or inserted', async () => {
    const moved = docs.filter((doc) => doc.series.endsWith('s03') || doc.series.endsWith('s17'));
    for (const doc of moved) {
      const start = new Date(doc.start.getTime() + 60_000);
      await col.updateOne({ _id: doc._id }, { $set: { start }, $inc: { n: 1 } });
      Object.assign(doc, { start, n: doc.n + 1 });
    }
    await col.updateMany({ series: 'traffic|s05' }, { $unset: { metric: '' } });
    for (const doc of docs)
      if (doc.series === 'traffic|s05') delete (doc as Partial<Bucket>).metric;
    await col.updateOne({ _id: 'multi:0' }, { $set: { metric: ['weather', 'power'] } });
    docs.find((doc) => doc._id === 'multi:0')!.metric = ['weather', 'power'];
    const slot4 = slotStart(4).getTime();
    const gone = (doc: Bucket) => hasMetric(doc, 'power') && doc.start.getTime() === slot4;
    const deleted = await col.deleteMany({ metric: 'power', start: slotStart(4) });
    expect(deleted.deletedCount).toBe(docs.filter(gone).length);
    docs = docs.filter((doc) => !gone(doc));
    const added: Bucket = {
      _id: 'late:0',
      metric: 'traffic',
      start: slotStart(1),
      series: 'traffic|s00a',
      n: 2,
    };
    await col.insertOne(added);
    docs.push(added);

    await fc.assert(fc.asyncProperty(ask, agrees), { numRuns: 100 });
  }, 120_000);

  it('resumes a walk across getMores without repeating or skipping a document', async () => {
    const filter = { metric: 'weather', start: { $gte: slotStart(0) } };
    const cursor = col.find(filter, { sort: { start: 1, series: 1 }, batchSize: 7 });
    const seen: string[] = [];
    for await (const doc of cursor) {
      seen.push(doc._id);
      // A document inserted behind the walk is not returned; one ahead of it is.
      if (seen.length === 10) {
        await col.insertOne({
          _id: 'behind:0',
          metric: 'weather',
          start: slotStart(0),
          series: 'weather|a',
          n: 0,
        });
        await col.insertOne({
          _id: 'ahead:0',
          metric: 'weather',
          start: slotStart(5),
          series: 'weather|zz',
          n: 0,
        });
      }
    }
    const ahead = {
      _id: 'ahead:0',
      metric: 'weather',
      start: slotStart(5),
      series: 'weather|zz',
      n: 0,
    };
    docs.push(
      { _id: 'behind:0', metric: 'weather', start: slotStart(0), series: 'weather|a', n: 0 },
      ahead,
    );
    const want = expected(docs, {
      filter,
      sort: { start: 1, series: 1 },
      total: true,
      skip: 0,
      limit: 0,
    })
      .map((doc) => doc._id)
      .filter((id) => id !== 'behind:0');
    expect(seen).toEqual(want);
  });

  it('keeps a dropped and re-created index exact, and lists it', async () => {
    await col.dropIndex('metric_1_start_1_series_1');
    await col.createIndex(
      { metric: 1, start: 1, series: 1 },
      { name: 'metric_1_start_1_series_1' },
    );
    const listed = (await col.listIndexes().toArray()) as { name: string }[];
    const names = listed.map((index) => index.name);
    expect(names.sort()).toEqual(['_id_', 'metric_1_start_1_series_1', 'start_1']);
    await fc.assert(fc.asyncProperty(ask, agrees), { numRuns: 50 });
  }, 120_000);
});
