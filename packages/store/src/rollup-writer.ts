import { partitionOf, type FoldInput, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import { applyFlush, type ApplyStats, type CollectionTarget } from './apply.js';
import { ensurePartition } from './partitions.js';

/**
 * One level's writer: applies flushes and makes sure each partition collection exists with its
 * indexes before the first write into it (the scheduler normally created it already; a late or
 * early tick must not depend on that).
 */
export class RollupWriter {
  private readonly ready = new Set<string>();

  constructor(
    private readonly db: Db,
    readonly level: Level,
    private readonly target?: CollectionTarget,
  ) {}

  apply(inputs: readonly FoldInput[]): Promise<ApplyStats> {
    return applyFlush(
      this.db,
      this.level,
      inputs,
      async (collection, delta) => {
        if (this.ready.has(collection)) return;
        await ensurePartition(this.db, {
          ...partitionOf(this.level, delta.slotStart),
          name: collection,
        });
        this.ready.add(collection);
      },
      this.target,
    );
  }
}
