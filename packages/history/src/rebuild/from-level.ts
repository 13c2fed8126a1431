import {
  bucketId,
  nextPartition,
  partitionOf,
  rollUp,
  slotStart,
  type CoarseLevel,
  type Level,
} from '@tickertape/buckets';
import type { BucketRecord, RollupStore, ShadowPartition } from '@tickertape/store';
import { compareBuckets, expectedFromFiner, type Difference } from '@tickertape/verify';

/** A source level's partition and the part of a shadow's range it holds. */
export interface SourceSpan {
  collection: string;
  fromMs: number;
  toMs: number;
}

/** The source level's partitions that hold the slots of `part`, each with its share of the range. */
export function sourceSpans(source: Level, part: ShadowPartition): SourceSpan[] {
  const spans: SourceSpan[] = [];
  for (let p = partitionOf(source, part.fromMs); p.startMs < part.toMs; p = nextPartition(p))
    spans.push({
      collection: p.name,
      fromMs: Math.max(part.fromMs, p.startMs),
      toMs: Math.min(part.toMs, p.endMs),
    });
  return spans;
}

export interface LevelFold {
  /** Source buckets read (shells included). */
  sourceBuckets: number;
  /** Ticks the source buckets hold. */
  ticks: number;
  /** Buckets written into the shadows. */
  written: number;
  /** Where a shadow bucket differs from what its source buckets say (the checker's comparison). */
  differences: Difference[];
}

const BATCH = 200;

/**
 * Rolls the source level up into the shadows, slot by slot: the source is read in `_id` order, so
 * one series' buckets of one coarse slot come together (ids are `<series>:<stamp>`, and a coarse
 * slot lies in one source partition), and memory holds one batch of slots at a time. Each batch is
 * written, read back, and compared with the checker's comparison against the source's totals.
 */
export async function foldLevel(options: {
  store: RollupStore;
  level: CoarseLevel;
  source: Level;
  plan: readonly ShadowPartition[];
  onBuckets?: (read: number) => void | Promise<void>;
}): Promise<LevelFold> {
  const { store, level } = options;
  const fold: LevelFold = { sourceBuckets: 0, ticks: 0, written: 0, differences: [] };
  for (const part of options.plan) {
    const shadow = store.partition(part.shadow);
    let groups: BucketRecord[][] = [];
    const flush = async () => {
      const rolled = rollUp(level, groups.flat());
      const expected = new Map<string, Record<string, unknown>>();
      for (const group of groups) {
        const want = expectedFromFiner(level, group);
        if (want !== undefined)
          expected.set(
            bucketId(level, want.series as string, (want.start as Date).getTime()),
            want,
          );
      }
      groups = [];
      if (rolled.size === 0 && expected.size === 0) return;
      await shadow.replace([...rolled.values()] as BucketRecord[]);
      fold.written += rolled.size;
      const ids = [...new Set([...rolled.keys(), ...expected.keys()])];
      const stored = new Map((await shadow.byIds(ids)).map((d) => [d._id, d]));
      for (const difference of compareBuckets(level, expected, stored))
        fold.differences.push(difference);
    };
    for (const span of sourceSpans(options.source, part)) {
      let current: BucketRecord[] = [];
      let currentId: string | undefined;
      for await (const bucket of store.partition(span.collection).scan(span, { inIdOrder: true })) {
        fold.sourceBuckets += 1;
        fold.ticks += (bucket.n as number) > 0 ? (bucket.n as number) : 0;
        const id = bucketId(
          level,
          bucket.series as string,
          slotStart(level, (bucket.start as Date).getTime()),
        );
        if (id !== currentId && current.length > 0) {
          groups.push(current);
          current = [];
          if (groups.length >= BATCH) {
            await flush();
            await options.onBuckets?.(fold.sourceBuckets);
          }
        }
        currentId = id;
        current.push(bucket);
      }
      if (current.length > 0) groups.push(current);
    }
    await flush();
    await options.onBuckets?.(fold.sourceBuckets);
  }
  return fold;
}
