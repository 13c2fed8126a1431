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
import { boundRead, type ReadBounds } from './read-bounds.js';

/**
 * The reads of stored rollups in the driver's language: `_id` ranges and lookups, the
 * `metric_1_start_1_series_1` index, projections of the parts asked for, decoded by the layout's
 * one decoder (`layout/field-slot.ts`). MongoRollupStore delegates its BucketReads here. Every
 * read carries `bounds` (ReadBounds): none starts once the signal has aborted, and a
 * MaxTimeMSExpired becomes a ReadTimeoutError.
 */
export class MongoBucketReads implements BucketReads {
  private listing: Promise<PartitionRange[]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect = 'mongodb',
    private readonly bounds: ReadBounds = {},
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
    return boundRead(this.bounds, () => readSlots(this.db, query, session, this.bounds));
  }

  readPart(query: PartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return boundRead(this.bounds, () => readPart(this.db, query, session, this.bounds));
  }

  readMetricPart(query: MetricPartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return boundRead(this.bounds, () => readMetricPart(this.db, query, session, this.bounds));
  }

  countBuckets(scope: BucketScope): Promise<number> {
    return boundRead(this.bounds, () => countBuckets(this.db, scope, this.bounds));
  }

  findSeries(scope: BucketScope, limit: number): Promise<SeriesRow[]> {
    return boundRead(this.bounds, () =>
      findSeries(this.db, scope, limit, this.dialect, this.bounds),
    );
  }

  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]> {
    return boundRead(this.bounds, () =>
      listMetrics(this.db, scope, sample, this.dialect, this.bounds),
    );
  }

  newestBucket(
    level: Level,
    series: string,
    partitions: number,
  ): Promise<NewestBucket | undefined> {
    return boundRead(this.bounds, () =>
      newestBucket(this.db, () => this.partitions(), level, series, partitions, this.bounds),
    );
  }

  metricDensities(level: Level, fromMs: number, toMs: number): Promise<MetricDensity[]> {
    // The CLI's (levels suggest), not a request's: the signal is checked before it starts only.
    return boundRead(this.bounds, () =>
      metricDensities(this.db, level, fromMs, toMs, this.dialect),
    );
  }
}
