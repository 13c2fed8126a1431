import type { Level } from '@tickertape/buckets';
import type { ShadowPartition } from '@tickertape/store';
import { compareBuckets, type Difference } from '@tickertape/verify';
import type { Db, Document } from 'mongodb';
import { spanFilter } from './from-level.js';

type Bucket = Document & { _id: string };

const CHUNK = 500;

async function byIds(db: Db, collection: string, ids: string[]): Promise<Map<string, Bucket>> {
  const docs = await db
    .collection<Bucket>(collection)
    .find({ _id: { $in: ids } })
    .toArray();
  return new Map(docs.map((doc) => [doc._id, doc]));
}

async function idsInRange(db: Db, collection: string, part: ShadowPartition): Promise<string[]> {
  const docs = db.collection<Bucket>(collection).find(spanFilter(part), { projection: { _id: 1 } });
  const ids: string[] = [];
  for await (const doc of docs) ids.push(doc._id);
  return ids;
}

/**
 * The checker's comparison of the buckets the ticks make (`want`, by `_id`) with what the shadows
 * hold over the plan's range, a chunk of buckets at a time: missing, wrong, and extra buckets.
 */
export async function compareShadows(
  db: Db,
  level: Level,
  plan: readonly ShadowPartition[],
  want: ReadonlyMap<string, Record<string, unknown>>,
): Promise<Difference[]> {
  const differences: Difference[] = [];
  for (const part of plan) {
    const ids = [...want.keys()].filter((id) => {
      const start = (want.get(id)!.start as Date).getTime();
      return start >= part.fromMs && start < part.toMs;
    });
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const stored = await byIds(db, part.shadow, chunk);
      const expected = new Map(chunk.map((id) => [id, want.get(id)!]));
      for (const difference of compareBuckets(level, expected, stored))
        differences.push(difference);
    }
    const extra = (await idsInRange(db, part.shadow, part)).filter((id) => !want.has(id));
    for (let i = 0; i < extra.length; i += CHUNK) {
      const stored = await byIds(db, part.shadow, extra.slice(i, i + CHUNK));
      for (const difference of compareBuckets(level, new Map(), stored))
        differences.push(difference);
    }
  }
  return differences;
}

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

/** Compares each shadow with the live buckets of its range, a chunk at a time. */
export async function againstLive(
  db: Db,
  level: Level,
  plan: readonly ShadowPartition[],
): Promise<AgainstLive> {
  const tally: AgainstLive = {
    same: 0,
    changed: 0,
    restored: 0,
    removed: 0,
    liveTicks: 0,
    shadowTicks: 0,
  };
  for (const part of plan) {
    const shadowIds = await idsInRange(db, part.shadow, part);
    const inShadow = new Set(shadowIds);
    for (let i = 0; i < shadowIds.length; i += CHUNK) {
      const chunk = shadowIds.slice(i, i + CHUNK);
      const shadow = await byIds(db, part.shadow, chunk);
      const live = await byIds(db, part.live, chunk);
      for (const [id, doc] of shadow) {
        if (!((doc.n as number) > 0)) continue;
        tally.shadowTicks += doc.n as number;
        const { _id: _ignored, ...want } = doc;
        const have = live.get(id);
        const found = compareBuckets(
          level,
          new Map([[id, want]]),
          new Map(have === undefined ? [] : [[id, have]]),
        );
        if (found.some((d) => d.kind === 'missing')) tally.restored += 1;
        else if (found.length > 0) tally.changed += 1;
        else tally.same += 1;
      }
    }
    const liveIds = await idsInRange(db, part.live, part);
    for (let i = 0; i < liveIds.length; i += CHUNK) {
      const live = await byIds(db, part.live, liveIds.slice(i, i + CHUNK));
      for (const [id, doc] of live) {
        if (!((doc.n as number) > 0)) continue;
        tally.liveTicks += doc.n as number;
        if (!inShadow.has(id)) tally.removed += 1;
      }
    }
  }
  return tally;
}
