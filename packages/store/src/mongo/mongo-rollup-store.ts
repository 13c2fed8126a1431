import type {
  Level,
  LevelMode,
  LevelPolicy,
  MetricPolicyChange,
  PinChange,
  AutoSkipChange,
  PartitionRange,
  RetentionPolicy,
} from '@tickertape/buckets';
import type { Db, MongoClient, Timestamp } from 'mongodb';
import { LevelPolicySource } from '../level-policy-source.js';
import type {
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
import type { RollupWriter, WriterOptions } from '../port/bucket-writes.js';
import type { StoreCapabilities } from '../port/capabilities.js';
import type { WatermarkState } from '../port/finality.js';
import type {
  CleanupOptions,
  HistoryRun,
  RunStart,
  RunState,
  ShadowPartition,
  SwapResult,
} from '../port/history.js';
import type { PartitionBuckets } from '../port/partitions.js';
import type { ReadSession } from '../port/read-session.js';
import type { RollupStore } from '../port/rollup-store.js';
import type { CollectionStorage } from '../port/storage-stats.js';
import type { RetentionRun, ShellRequest, ShellSeries } from '../port/upkeep.js';
import { StoreUnsupportedError } from '../store-error.js';
import { withReads } from '../bound-reads.js';
import { MongoBucketReads } from './bucket-reads.js';
import { dialectOf, type Dialect } from './capabilities.js';
import { listRuns, startRun, updateRun } from './history-runs.js';
import {
  changeAutoSkip,
  changeLevelPolicy,
  changePins,
  changeMetricPolicy,
  readLevelPolicy,
} from './level-policy.js';
import { MongoPartitionBuckets } from './partition-buckets.js';
import { bucketCollectionNames, ensurePartition, listPartitions } from './partitions.js';
import type { ReadBounds } from './read-bounds.js';
import { MongoReadSession, clientSessionOf } from './read-session.js';
import { applyRetention } from './retention.js';
import { MongoRollupWriter } from './rollup-writer.js';
import { cleanupReplaced, prepareShadow, seedShadow, swapShadow } from './shadow.js';
import { insertShells, recentSeries } from './shells.js';
import { storageStats } from './storage-stats.js';
import { advanceWatermarks, bumpGeneration, readWatermarkState } from './watermarks.js';

/**
 * Stored rollups in one MongoDB database: partitions `rollup_<level>_<stamp>` of bucket documents
 * (docs/data-layout.md), watermarks, the level policy, history's runs and shadows. Reads are
 * `MongoBucketReads`'; everything else is here. The client belongs to `openMongoStores`, which
 * closes it.
 */
export class MongoRollupStore implements RollupStore {
  private readonly reads: MongoBucketReads;
  private readonly dialect: Dialect;
  /**
   * The newest cluster time a watermark read saw, when reads are causal: every query's session
   * starts there, so its reads wait for a member that has the writes those watermarks promise
   * final — also when the watermarks came from a reader's cache, read by an earlier query.
   */
  private watermarksAt: Timestamp | undefined;

  /** `maxTimeMS` on every bucket read, when given (the API's API_READ_TIMEOUT_MS). */
  private readonly maxTimeMS: number | undefined;

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    readonly capabilities: StoreCapabilities,
    options: { readTimeoutMs?: number } = {},
  ) {
    this.dialect = dialectOf(capabilities.server);
    this.maxTimeMS = options.readTimeoutMs;
    this.reads = new MongoBucketReads(db, this.dialect, this.bounds());
  }

  private bounds(signal?: AbortSignal): ReadBounds {
    return {
      ...(this.maxTimeMS === undefined ? {} : { maxTimeMS: this.maxTimeMS }),
      ...(signal === undefined ? {} : { signal }),
    };
  }

  withSignal(signal: AbortSignal): RollupStore {
    return withReads(this, new MongoBucketReads(this.db, this.dialect, this.bounds(signal)));
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  storageStats(): Promise<CollectionStorage[]> {
    return storageStats(this.db);
  }

  // BucketWrites

  writer(level: Level, options: WriterOptions = {}): RollupWriter {
    return new MongoRollupWriter(
      this.db,
      level,
      options.policy ?? new LevelPolicySource(this),
      options.target,
    );
  }

  // BucketReads

  readSlots(query: SlotRangeQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return this.reads.readSlots(query, session);
  }
  readPart(query: PartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return this.reads.readPart(query, session);
  }
  readMetricPart(query: MetricPartQuery, session?: ReadSession): Promise<FieldSlot[]> {
    return this.reads.readMetricPart(query, session);
  }
  countBuckets(scope: BucketScope): Promise<number> {
    return this.reads.countBuckets(scope);
  }
  findSeries(scope: BucketScope, limit: number): Promise<SeriesRow[]> {
    return this.reads.findSeries(scope, limit);
  }
  listMetrics(scope: BucketScope, sample: number): Promise<MetricRow[]> {
    return this.reads.listMetrics(scope, sample);
  }
  newestBucket(
    level: Level,
    series: string,
    partitions: number,
  ): Promise<NewestBucket | undefined> {
    return this.reads.newestBucket(level, series, partitions);
  }
  metricDensities(level: Level, fromMs: number, toMs: number): Promise<MetricDensity[]> {
    return this.reads.metricDensities(level, fromMs, toMs);
  }

  // Partitions

  ensurePartition(range: PartitionRange): Promise<boolean> {
    return ensurePartition(this.db, range);
  }
  listPartitions(): Promise<PartitionRange[]> {
    return listPartitions(this.db);
  }
  listNames(): Promise<string[]> {
    return bucketCollectionNames(this.db);
  }
  partition(name: string): PartitionBuckets {
    return new MongoPartitionBuckets(this.db, name, this.dialect);
  }

  // Finality

  async readWatermarks(session?: ReadSession): Promise<WatermarkState> {
    const given = clientSessionOf(session);
    if (given !== undefined || !this.capabilities.causalReads) {
      const state = await readWatermarkState(this.db, given);
      this.sawClusterTime(given?.operationTime);
      return state;
    }
    const own = this.client.startSession({ causalConsistency: true });
    try {
      const state = await readWatermarkState(this.db, own);
      this.sawClusterTime(own.operationTime);
      return state;
    } finally {
      await own.endSession();
    }
  }

  private sawClusterTime(at: Timestamp | undefined): void {
    if (at !== undefined && (this.watermarksAt === undefined || at.greaterThan(this.watermarksAt)))
      this.watermarksAt = at;
  }

  advanceWatermarks(marks: Readonly<Partial<Record<Level, number>>>, nowMs: number): Promise<void> {
    return advanceWatermarks(this.db, marks, nowMs);
  }
  bumpGeneration(level: Level, nowMs: number): Promise<void> {
    return bumpGeneration(this.db, level, nowMs);
  }
  beginReads(): ReadSession | undefined {
    if (!this.capabilities.causalReads) return undefined;
    const session = this.client.startSession({ causalConsistency: true });
    if (this.watermarksAt !== undefined) session.advanceOperationTime(this.watermarksAt);
    return new MongoReadSession(session);
  }

  // Upkeep

  recentSeries(level: Level, sinceMs: number, untilMs: number): Promise<ShellSeries[]> {
    return recentSeries(this.db, level, sinceMs, untilMs, this.dialect);
  }
  async insertShells(level: Level, shells: readonly ShellRequest[]): Promise<number> {
    if (!this.capabilities.shells)
      throw new StoreUnsupportedError('shells', this.capabilities.server);
    return insertShells(this.db, level, shells);
  }
  applyRetention(nowMs: number, policy: RetentionPolicy, dryRun: boolean): Promise<RetentionRun> {
    return applyRetention(this.db, nowMs, policy, dryRun);
  }
  readLevelPolicy(): Promise<LevelPolicy> {
    return readLevelPolicy(this.db);
  }
  changeLevelPolicy(
    level: Level,
    metrics: readonly string[],
    mode: LevelMode,
    nowMs: number,
  ): Promise<LevelPolicy> {
    return changeLevelPolicy(this.db, level, metrics, mode, nowMs);
  }
  changeMetricPolicy(change: MetricPolicyChange, nowMs: number): Promise<LevelPolicy> {
    return changeMetricPolicy(this.db, change, nowMs);
  }
  changeAutoSkip(change: AutoSkipChange, nowMs: number): Promise<LevelPolicy> {
    return changeAutoSkip(this.db, change, nowMs);
  }
  changePins(change: PinChange, nowMs: number): Promise<LevelPolicy> {
    return changePins(this.db, change, nowMs);
  }

  // History

  startRun(start: RunStart, nowMs: number): Promise<{ run: HistoryRun; resumed: boolean }> {
    return startRun(this.db, start, nowMs);
  }
  updateRun(
    id: string,
    nowMs: number,
    patch?: { state?: RunState; detail?: string },
  ): Promise<void> {
    return updateRun(this.db, id, nowMs, patch);
  }
  listRuns(): Promise<HistoryRun[]> {
    return listRuns(this.db);
  }
  prepareShadow(part: ShadowPartition): Promise<void> {
    return prepareShadow(this.db, part);
  }
  seedShadow(part: ShadowPartition): Promise<number> {
    return seedShadow(this.db, part);
  }
  swapShadow(
    part: ShadowPartition,
    options?: { method?: SwapResult['method'] },
  ): Promise<SwapResult> {
    return swapShadow(this.db, part, this.capabilities.renamesSafely, options);
  }
  cleanupReplaced(options?: CleanupOptions): Promise<string[]> {
    return cleanupReplaced(this.db, options);
  }
}
