import type { Level } from '@tickertape/buckets';
import type { BucketRecord, RollupStore, ShadowPartition } from '@tickertape/store';
import { compareBuckets, type Difference } from '@tickertape/verify';

/** What a swap changes, bucket by bucket, against the live buckets of the range. */
export interface AgainstLive {
  /** Buckets with data in both, equal (the checker's comparison: sums within 1e-9). */
  same: number;
  /** Buckets with data in both, different. */
  changed: number;
  /** Buckets the shadow has that the live range lacks (or holds only as an empty shell). */
  restored: number;
  /** Live buckets with data that the shadow does not have: the swap deletes them. */
  removed: number;
  /** Ticks counted by the live buckets and by the shadow's. */
  liveTicks: number;
  shadowTicks: number;
}

export interface ShadowCheck {
  /** Where the shadows differ from `want` (none checked without it). */
  differences: Difference[];
  live: AgainstLive;
}

const CHUNK = 500;
const one = (id: string, doc: Record<string, unknown> | undefined) =>
  new Map(doc === undefined ? [] : [[id, doc]]);

/**
 * One pass over each shadow, a chunk of buckets at a time with the live buckets of the same ids:
 * the checker's comparison of every shadow bucket with `want` (the buckets the source's ticks
 * make, by `_id`: missing, wrong and extra buckets), and a tally of what the swap will change
 * against the live buckets. A scan of the live ids finds the live buckets the shadow lacks. Scans
 * and `_id` lookups only: the stand-in serves no range from an index, so every pass counts.
 */
export async function checkShadows(
  store: RollupStore,
  level: Level,
  plan: readonly ShadowPartition[],
  want?: ReadonlyMap<string, Record<string, unknown>>,
): Promise<ShadowCheck> {
  const differences: Difference[] = [];
  const live: AgainstLive = {
    same: 0,
    changed: 0,
    restored: 0,
    removed: 0,
    liveTicks: 0,
    shadowTicks: 0,
  };
  const seen = new Set<string>();
  const compareChunk = async (part: ShadowPartition, chunk: BucketRecord[]) => {
    const current = new Map(
      (await store.partition(part.live).byIds(chunk.map((doc) => doc._id))).map((doc) => [
        doc._id,
        doc,
      ]),
    );
    for (const doc of chunk) {
      const { _id: id, ...rest } = doc;
      seen.add(id);
      if (want !== undefined)
        for (const difference of compareBuckets(level, one(id, want.get(id)), one(id, doc)))
          differences.push(difference);
      if (!((doc.n as number) > 0)) continue;
      live.shadowTicks += doc.n as number;
      const found = compareBuckets(level, one(id, rest), one(id, current.get(id)));
      if (found.some((d) => d.kind === 'missing')) live.restored += 1;
      else if (found.length > 0) live.changed += 1;
      else live.same += 1;
    }
  };
  for (const part of plan) {
    let chunk: BucketRecord[] = [];
    for await (const doc of store.partition(part.shadow).scan(part)) {
      chunk.push(doc);
      if (chunk.length >= CHUNK) {
        await compareChunk(part, chunk);
        chunk = [];
      }
    }
    await compareChunk(part, chunk);
    for await (const { _id: id, n } of store.partition(part.live).scanCounts(part)) {
      if (!(n > 0)) continue;
      live.liveTicks += n;
      if (!seen.has(id)) live.removed += 1;
    }
  }
  if (want !== undefined) {
    const missing = new Map([...want].filter(([id]) => !seen.has(id)));
    for (const difference of compareBuckets(level, missing, new Map()))
      differences.push(difference);
  }
  return { differences, live };
}
