import { foldInputOf, type FoldInput } from '@tickertape/buckets';
import { seriesKey, type Tick } from '@tickertape/tick';

/**
 * A stable partition per series, as a keyed producer gives one (which one does not matter for
 * storage, only that a series stays on it): FNV-1a of the series key, modulo the partitions.
 */
export function partitionFor(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

export interface FlushPlan {
  partitions: number;
  /** Ticks of one partition per flush: the workers write a partition's fetched batch at a time. */
  flushTicks: number;
}

/**
 * The ticks as a worker's flushes would hold them, without Kafka: each tick on its series'
 * partition at the next offset of that partition, a partition's ticks written once
 * `flushTicks` of them are pending, and whatever is left at the end.
 */
export function* syntheticFlushes(ticks: Iterable<Tick>, plan: FlushPlan): Generator<FoldInput[]> {
  const pending: FoldInput[][] = Array.from({ length: plan.partitions }, () => []);
  const offsets = new Array<number>(plan.partitions).fill(0);
  const partitionOf = new Map<string, number>();
  for (const tick of ticks) {
    const key = seriesKey(tick.metric, tick.tags);
    let partition = partitionOf.get(key);
    if (partition === undefined)
      partitionOf.set(key, (partition = partitionFor(key, plan.partitions)));
    const offset = offsets[partition]!;
    offsets[partition] = offset + 1;
    const batch = pending[partition]!;
    batch.push(foldInputOf(tick, key, partition, offset));
    if (batch.length >= plan.flushTicks) {
      yield batch;
      pending[partition] = [];
    }
  }
  for (const batch of pending) if (batch.length > 0) yield batch;
}
