import {
  deltaKey,
  foldBatch,
  slotStart,
  type BucketDelta,
  type FoldInput,
  type FoldPolicy,
  type Level,
} from '@tickertape/buckets';
import { guardedUpdate } from '../layout/update.js';
import type {
  ApplyStats,
  PartitionTarget,
  PolicySource,
  RollupWriter,
  WriterStats,
} from '../port/bucket-writes.js';
import { StoreErrorCode, StoreWriteError } from '../store-error.js';
import type { MemoryState } from './state.js';
import { applyUpdate, matchesGuard } from './update-document.js';

/**
 * One level's writer over the in-memory collections, following the Mongo writer step by step:
 * fold the flush into one delta per bucket, evaluate each delta's guarded update (a replay
 * misses the guard and "collides" with the existing `_id`), then re-fold only the records the
 * conflicted buckets have not absorbed, from their `ap.<partition>` marks (docs/exactly-once.md).
 */
export class MemoryRollupWriter implements RollupWriter {
  constructor(
    private readonly state: MemoryState,
    readonly level: Level,
    private readonly target: PartitionTarget,
    private readonly policy: PolicySource,
  ) {}

  async apply(inputs: readonly FoldInput[]): Promise<WriterStats> {
    const policy = await this.policy.current();
    const kept = policy.isEmpty
      ? inputs
      : inputs.filter((input) => !policy.skipsAt(this.level, input.metric, input.ts));
    if (kept.length === 0)
      return { buckets: 0, operations: 0, bulkWrites: 0, conflicts: 0, skipped: inputs.length };
    const stats = this.applyFlush(kept, policy);
    return { ...stats, skipped: inputs.length - kept.length };
  }

  private applyFlush(inputs: readonly FoldInput[], policy: FoldPolicy): ApplyStats {
    const deltas = foldBatch(this.level, inputs, policy);
    const stats: ApplyStats = {
      buckets: deltas.size,
      operations: deltas.size,
      bulkWrites: 0,
      conflicts: 0,
    };
    let pending = this.byCollection(deltas.values());
    for (const collection of pending.keys()) this.state.collections.ensure(collection);
    for (let round = 0; pending.size > 0; round++) {
      if (round > 2)
        throw new StoreWriteError(
          StoreErrorCode.ConflictUnresolved,
          'buckets kept conflicting after re-folding; two writers for one Kafka partition?',
          { retriable: true },
        );
      const next = new Map<string, BucketDelta[]>();
      for (const [name, group] of pending) {
        stats.bulkWrites += 1;
        const conflicted = this.writeGroup(name, group);
        if (conflicted.length === 0) continue;
        stats.conflicts += conflicted.length;
        const retries = [
          ...foldBatch(this.level, this.unapplied(name, inputs, conflicted), policy).values(),
        ];
        if (retries.length > 0) {
          stats.operations += retries.length;
          next.set(name, retries);
        }
      }
      pending = next;
    }
    return stats;
  }

  private byCollection(deltas: Iterable<BucketDelta>): Map<string, BucketDelta[]> {
    const groups = new Map<string, BucketDelta[]>();
    for (const delta of deltas) {
      const name = this.target(delta.collection);
      const group = groups.get(name);
      if (group) group.push(delta);
      else groups.set(name, [delta]);
    }
    return groups;
  }

  /** Applies each delta's guarded upsert; returns those that hit the guard (E11000 on the server). */
  private writeGroup(name: string, deltas: readonly BucketDelta[]): BucketDelta[] {
    const { collection } = this.state.collections.ensure(name);
    const conflicted: BucketDelta[] = [];
    for (const delta of deltas) {
      const { filter, update } = guardedUpdate(delta);
      const existing = collection.get(delta.id);
      if (!matchesGuard(existing, filter)) {
        conflicted.push(delta);
        continue;
      }
      const doc = existing ?? { _id: delta.id };
      applyUpdate(doc, update, existing === undefined);
      collection.set(delta.id, doc);
    }
    return conflicted;
  }

  /** The records of `inputs` the conflicted buckets lack, by their applied marks (see apply.ts). */
  private unapplied(
    name: string,
    inputs: readonly FoldInput[],
    conflicted: readonly BucketDelta[],
  ): FoldInput[] {
    const collection = this.state.collections.get(name);
    const marks = new Map<string, number>();
    for (const delta of conflicted) {
      const ap = collection?.get(delta.id)?.ap as Record<string, unknown> | undefined;
      const mark = ap?.[String(delta.kafkaPartition)];
      marks.set(
        deltaKey(delta.kafkaPartition, delta.slotStart, delta.seriesKey),
        typeof mark === 'number' ? mark : -1,
      );
    }
    return inputs.filter((input) => {
      const mark = marks.get(
        deltaKey(input.kafkaPartition, slotStart(this.level, input.ts), input.seriesKey),
      );
      return mark !== undefined && input.offset > mark;
    });
  }
}
