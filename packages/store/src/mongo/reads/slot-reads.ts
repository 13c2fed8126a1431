import { bucketId, partitionOf, slotStart } from '@tickertape/buckets';
import type { Collection, Db, Document, Filter, FindOptions } from 'mongodb';
import { fieldSlotOf } from '../../layout/field-slot.js';
import type { StoredBucket } from '../../layout/stored-bucket.js';
import type {
  BucketPart,
  FieldSlot,
  MetricPartQuery,
  PartQuery,
  SlotRangeQuery,
} from '../../port/bucket-reads.js';
import type { ReadSession } from '../../port/read-session.js';
import { boundOptions, type ReadBounds } from '../read-bounds.js';
import { sessionOption } from '../read-session.js';
import { decodeBucket } from './bucket-bytes.js';
import { partitionsInRange } from './partitions-in-range.js';
import { partProjection, rangeProjection, wholeFieldProjection } from './projections.js';

type Read = Pick<StoredBucket, 'series' | 'f' | 'c'> & { start?: Date };

/** The buckets `filter` finds, read raw and decoded with their sketches as lists (bucket-bytes). */
async function findBuckets<T extends Read>(
  collection: Collection<StoredBucket>,
  filter: Filter<StoredBucket>,
  options: FindOptions,
): Promise<T[]> {
  const raw = await collection.find<Uint8Array>(filter, { ...options, raw: true }).toArray();
  return raw.map((bytes) => decodeBucket(bytes) as T);
}

/**
 * One series' buckets over a range: a left-anchored `_id` range in each partition the range
 * touches (the `_id` index; `limit` is the plan), in slot order. Every bucket read comes back,
 * even one holding nothing of the field: callers count what was examined.
 */
export async function readSlots(
  db: Db,
  query: SlotRangeQuery,
  session?: ReadSession,
  bounds: ReadBounds = {},
): Promise<FieldSlot[]> {
  const { level, series, field, fromMs, toMs, detail, limit } = query;
  const projection = rangeProjection(level, field, detail);
  const batches = await Promise.all(
    partitionsInRange(level, fromMs, toMs).map((partition) => {
      const lo = slotStart(level, Math.max(fromMs, partition.startMs));
      const hi = slotStart(level, Math.min(toMs, partition.endMs) - 1);
      return findBuckets<Read & { start: Date }>(
        db.collection<StoredBucket>(partition.name),
        { _id: { $gte: bucketId(level, series, lo), $lte: bucketId(level, series, hi) } },
        {
          projection,
          sort: { _id: 1 },
          limit,
          ...sessionOption(session),
          ...boundOptions(bounds),
        },
      );
    }),
  );
  const part = { totals: detail === 'slot', ...(detail === 'sub' ? { sub: 'all' as const } : {}) };
  return batches
    .flat()
    .map((doc) => fieldSlotOf({ series, level, start: doc.start.getTime() }, doc, field, part));
}

/** The decoded part of what was read for `part` (whole: every part the bucket can serve). */
function decode(
  part: BucketPart,
  field: string,
  whole: boolean,
  docs: readonly Read[],
): FieldSlot[] {
  const decoded = whole
    ? { totals: true, sub: 'all' as const }
    : part.sub
      ? { totals: false, sub: part.sub }
      : { totals: true };
  return docs.map((doc) =>
    fieldSlotOf({ series: doc.series, level: part.level, start: part.start }, doc, field, decoded),
  );
}

function projectionFor(part: BucketPart, field: string, whole: boolean): Document {
  return {
    series: 1,
    ...(whole ? wholeFieldProjection(part.level, field) : partProjection(part, field)),
  };
}

/** A part of listed series' buckets: one `_id` lookup (`$in`) in the part's partition. */
export async function readPart(
  db: Db,
  query: PartQuery,
  session?: ReadSession,
  bounds: ReadBounds = {},
): Promise<FieldSlot[]> {
  const { part, field, whole } = query;
  const docs = await findBuckets(
    db.collection<StoredBucket>(partitionOf(part.level, part.start).name),
    { _id: { $in: query.series.map((key) => bucketId(part.level, key, part.start)) } },
    {
      projection: projectionFor(part, field, whole),
      ...sessionOption(session),
      ...boundOptions(bounds),
    },
  );
  return decode(part, field, whole, docs);
}

/**
 * A part of a metric's buckets found by `metric` + `start` (the `metric_1_start_1_series_1` index,
 * walked in series order), buckets with ticks only, the first `limit` by series key.
 */
export async function readMetricPart(
  db: Db,
  query: MetricPartQuery,
  session?: ReadSession,
  bounds: ReadBounds = {},
): Promise<FieldSlot[]> {
  const { part, field, whole } = query;
  const filter: Filter<StoredBucket> = {
    metric: query.metric,
    start: new Date(part.start),
    n: { $gt: 0 },
  };
  for (const [key, value] of Object.entries(query.tags))
    (filter as Document)[`tags.${key}`] = value;
  const docs = await findBuckets(
    db.collection<StoredBucket>(partitionOf(part.level, part.start).name),
    filter,
    {
      projection: projectionFor(part, field, whole),
      sort: { series: 1 },
      limit: query.limit,
      ...sessionOption(session),
      ...boundOptions(bounds),
    },
  );
  return decode(part, field, whole, docs);
}
