import type { Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import type {
  BucketReads,
  BucketScope,
  FieldSlot,
  MetricDensity,
  MetricPartQuery,
  MetricRow,
  NewestBucket,
  PartQuery,
  SeriesRow,
  SlotRangeQuery,
} from '../port/bucket-reads.js';
import type { ReadSession } from '../port/read-session.js';

// PLACEHOLDER (issue 35, being written on branch store-reads): the reads of stored rollups in the
// driver's language. MongoRollupStore delegates its BucketReads to this class.
export class MongoBucketReads implements BucketReads {
  constructor(private readonly db: Db) {}

  private todo(): never {
    throw new Error(`MongoBucketReads on ${this.db.databaseName}: not written yet`);
  }

  readSlots(_query: SlotRangeQuery, _session?: ReadSession): Promise<FieldSlot[]> {
    return this.todo();
  }
  readPart(_query: PartQuery, _session?: ReadSession): Promise<FieldSlot[]> {
    return this.todo();
  }
  readMetricPart(_query: MetricPartQuery, _session?: ReadSession): Promise<FieldSlot[]> {
    return this.todo();
  }
  countBuckets(_scope: BucketScope): Promise<number> {
    return this.todo();
  }
  findSeries(_scope: BucketScope, _limit: number): Promise<SeriesRow[]> {
    return this.todo();
  }
  listMetrics(_scope: BucketScope, _sample: number): Promise<MetricRow[]> {
    return this.todo();
  }
  newestBucket(_level: Level, _series: string, _partitions: number): Promise<NewestBucket | undefined> {
    return this.todo();
  }
  metricDensities(_level: Level, _fromMs: number, _toMs: number): Promise<MetricDensity[]> {
    return this.todo();
  }
}
