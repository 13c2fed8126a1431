import type { Level, PartitionRange } from '@tickertape/buckets';
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
import type { Dialect } from './capabilities.js';
import { countBuckets, findSeries, listMetrics } from './reads/discovery.js';
import { listPartitions } from './partitions.js';
import { metricDensities } from './reads/metric-densities.js';
import { newestBucket } from './reads/newest-bucket.js';
import { readMetricPart, readPart, readSlots } from './reads/slot-reads.js';

/**
 * The reads of stored rollups in the driver's language: `_id` ranges and lookups, the
 * `metric_1_start_1_series_1` index, projections of the parts asked for, decoded by the layout's
 * one decoder (`layout/field-slot.ts`). MongoRollupStore delegates its BucketReads here.
 */
export class MongoBucketReads implements BucketReads {
  private listing: Promise<PartitionRange[]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect = 'mongodb',
  ) {}

  /**
   * The partitions present, one listing shared by the calls that ask while it is under way: a
   * series' status asks every level's newest bucket at once, and lists the partitions once.
   */
  private partitions(): Promise<PartitionRange[]> {
    this.listing ??= listPartitions(this.db).finally(() => {
      this.listing = undefined;
    });
    return this.listing;
  }

  readSlots(query: SlotRangeQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return readSlots(this.db, query, session);
  }

  readPart(query: PartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return readPart(this.db, query, session);
  }

  readMetricPart(query: MetricPartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return readMetricPart(this.db, query, session);
  }

  countBuckets(scope: BucketScope): Promise<number> {
    return countBuckets(this.db, scope);
  }

  findSeries(scope: BucketScope, limit: number): Promise<SeriesRow[]> {
    return findSeries(this.db, scope, limit, this.dialect);
  }

  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]> {
    return listMetrics(this.db, scope, sample, this.dialect);
  }

  newestBucket(
    level: Level,
    series: string,
    partitions: number,
  ): Promise<NewestBucket | undefined> {
    return newestBucket(this.db, () => this.partitions(), level, series, partitions);
  }

  metricDensities(level: Level, fromMs: number, toMs: number): Promise<MetricDensity[]> {
    return metricDensities(this.db, level, fromMs, toMs, this.dialect);
  }
}
