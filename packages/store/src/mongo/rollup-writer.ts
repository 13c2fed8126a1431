import { partitionOf, type FoldInput, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import type {
  PartitionTarget,
  PolicySource,
  RollupWriter,
  WriterStats,
} from '../port/bucket-writes.js';
import { applyFlush } from './apply.js';
import { ensurePartition } from './partitions.js';

/**
 * One level's writer: applies flushes and makes sure each partition collection exists with its
 * indexes before the first write into it (the scheduler normally created it already; a late or
 * early tick must not depend on that). Ticks of metrics the level skips (`LevelPolicy`) are
 * left out and those it keeps compact are written so, so every writer of a level — workers,
 * backfills, rebuilds — follows one policy.
 */
export class MongoRollupWriter implements RollupWriter {
  private readonly ready = new Set<string>();

  constructor(
    private readonly db: Db,
    readonly level: Level,
    private readonly policy: PolicySource,
    private readonly target?: PartitionTarget,
  ) {}

  async apply(inputs: readonly FoldInput[]): Promise<WriterStats> {
    const policy = await this.policy.current();
    const kept = policy.isEmpty
      ? inputs
      : inputs.filter((input) => !policy.skipsAt(this.level, input.metric, input.ts));
    if (kept.length === 0)
      return { buckets: 0, operations: 0, bulkWrites: 0, conflicts: 0, skipped: inputs.length };
    const stats = await applyFlush(
      this.db,
      this.level,
      kept,
      async (collection, delta) => {
        if (this.ready.has(collection)) return;
        await ensurePartition(this.db, {
          ...partitionOf(this.level, delta.slotStart),
          name: collection,
        });
        this.ready.add(collection);
      },
      this.target,
      policy,
    );
    return { ...stats, skipped: inputs.length - kept.length };
  }
}
