import { nextPartition, partitionOf, type Level, type PartitionRange } from '@tickertape/buckets';

/** The partition collections of `level` that [from, to) touches, in time order. */
export function partitionsInRange(level: Level, fromMs: number, toMs: number): PartitionRange[] {
  const ranges: PartitionRange[] = [];
  for (let range = partitionOf(level, fromMs); range.startMs < toMs; range = nextPartition(range))
    ranges.push(range);
  return ranges;
}
