import type { Level, LevelPolicy, PartitionRange } from '@tickertape/buckets';
import { parsePartitionName } from '@tickertape/buckets';
import { checkedReads, withReads } from '../bound-reads.js';
import type { BucketReads } from '../port/bucket-reads.js';
import type { PolicySource, RollupWriter, WriterOptions } from '../port/bucket-writes.js';
import type { StoreCapabilities } from '../port/capabilities.js';
import type { Finality } from '../port/finality.js';
import type { History } from '../port/history.js';
import type { PartitionBuckets } from '../port/partitions.js';
import type { RollupStore } from '../port/rollup-store.js';
import type { Upkeep } from '../port/upkeep.js';
import { MemoryPartitionBuckets } from './collections.js';
import { MemoryFinality } from './finality.js';
import { MemoryHistory } from './history.js';
import { MemoryBucketReads } from './reads.js';
import { MemoryState } from './state.js';
import { storageStats } from './storage-stats.js';
import { MemoryUpkeep } from './upkeep.js';
import { MemoryRollupWriter } from './writer.js';

const CAPABILITIES: StoreCapabilities = Object.freeze({
  server: 'memory',
  renamesSafely: true,
  causalReads: false,
  shells: true,
});

/**
 * The reference RollupStore: every bucket a BucketRecord in the Mongo store's layout, written by
 * evaluating the layout's own update documents (see update-document.ts), read by the layout's
 * decoder. The unit tests' store, and with the contract suite the definition of what a store
 * must do. Lives as long as the object; nothing is persisted.
 */
export function createMemoryStore(): RollupStore {
  const state = new MemoryState();
  const reads: BucketReads = new MemoryBucketReads(state);
  const finality: Finality = new MemoryFinality(state);
  const upkeep: Upkeep = new MemoryUpkeep(state);
  const history: History = new MemoryHistory(state, CAPABILITIES.renamesSafely);
  // A policy change reaches the next flush: there is nothing to re-read from.
  const storedPolicy: PolicySource = {
    current: (): Promise<LevelPolicy> => upkeep.readLevelPolicy(),
  };
  const store: RollupStore = {
    capabilities: CAPABILITIES,
    ping: () => Promise.resolve(),
    storageStats: () => Promise.resolve(storageStats(state.collections)),

    writer: (level: Level, options: WriterOptions = {}): RollupWriter =>
      new MemoryRollupWriter(
        state,
        level,
        options.target ?? ((partition) => partition),
        options.policy ?? storedPolicy,
      ),

    readSlots: (query, session) => reads.readSlots(query, session),
    readPart: (query, session) => reads.readPart(query, session),
    readMetricPart: (query, session) => reads.readMetricPart(query, session),
    countBuckets: (scope) => reads.countBuckets(scope),
    findSeries: (scope, limit) => reads.findSeries(scope, limit),
    listMetrics: (scope, sample) => reads.listMetrics(scope, sample),
    newestBucket: (level, series, partitions) => reads.newestBucket(level, series, partitions),
    metricDensities: (level, fromMs, toMs) => reads.metricDensities(level, fromMs, toMs),

    ensurePartition: (range: PartitionRange) =>
      Promise.resolve(state.collections.ensure(range.name).created),
    listPartitions: () =>
      Promise.resolve(
        state.collections
          .names()
          .map((name) => parsePartitionName(name))
          .filter((range): range is PartitionRange => range !== undefined),
      ),
    listNames: () => Promise.resolve(state.collections.names()),
    partition: (name: string): PartitionBuckets =>
      new MemoryPartitionBuckets(state.collections, name),

    readWatermarks: (session) => finality.readWatermarks(session),
    advanceWatermarks: (marks, nowMs) => finality.advanceWatermarks(marks, nowMs),
    bumpGeneration: (level, nowMs) => finality.bumpGeneration(level, nowMs),
    beginReads: () => finality.beginReads(),

    recentSeries: (level, sinceMs, untilMs) => upkeep.recentSeries(level, sinceMs, untilMs),
    insertShells: (level, shells) => upkeep.insertShells(level, shells),
    applyRetention: (nowMs, policy, dryRun) => upkeep.applyRetention(nowMs, policy, dryRun),
    readLevelPolicy: () => upkeep.readLevelPolicy(),
    changeLevelPolicy: (level, metrics, mode, nowMs) =>
      upkeep.changeLevelPolicy(level, metrics, mode, nowMs),
    changeMetricPolicy: (change, nowMs) => upkeep.changeMetricPolicy(change, nowMs),
    changeAutoSkip: (change, nowMs) => upkeep.changeAutoSkip(change, nowMs),
    changePins: (change, nowMs) => upkeep.changePins(change, nowMs),

    startRun: (start, nowMs) => history.startRun(start, nowMs),
    updateRun: (id, nowMs, patch) => history.updateRun(id, nowMs, patch),
    listRuns: () => history.listRuns(),
    prepareShadow: (part) => history.prepareShadow(part),
    seedShadow: (part) => history.seedShadow(part),
    swapShadow: (part, options) => history.swapShadow(part, options),
    cleanupReplaced: (options) => history.cleanupReplaced(options),

    withSignal: (signal: AbortSignal) => withReads(store, checkedReads(reads, signal)),
  };
  return store;
}
