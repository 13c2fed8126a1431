import { LEVELS, type Level } from '@tickertape/buckets';
import type { ClientSession, Db } from 'mongodb';
import type { WatermarkState } from '../port/finality.js';

/** One document per level: every slot ending at or before `finalBefore` is final. */
export const WATERMARKS_COLLECTION = 'watermarks';

interface WatermarkDoc {
  _id: Level;
  /** Absent while only a generation was recorded (a swap before the scheduler's first run). */
  finalBefore?: Date;
  /**
   * Counts the changes to final buckets of the level: a rebuild's or backfill's swap, a
   * retention drop. Readers key what they keep of final buckets (caches, ETags) by it, since a
   * final bucket changes in no other way.
   */
  generation?: number;
  updatedAt: Date;
}

/**
 * Moves each level's finality watermark forward, never back ($max): two scheduler replicas with
 * slightly different clocks, or a late run, cannot un-finalise a slot. One small document per
 * level instead of a flag on every bucket, so finality costs nothing per bucket and needs no tick.
 */
export async function advanceWatermarks(
  db: Db,
  marks: Readonly<Partial<Record<Level, number>>>,
  nowMs: number,
): Promise<void> {
  const collection = db.collection<WatermarkDoc>(WATERMARKS_COLLECTION);
  await Promise.all(
    Object.entries(marks).map(([level, mark]) =>
      collection.updateOne(
        { _id: level as Level },
        { $max: { finalBefore: new Date(mark) }, $set: { updatedAt: new Date(nowMs) } },
        { upsert: true },
      ),
    ),
  );
}

/**
 * Records that final buckets of `level` changed (after the change, so a reader that saw the old
 * generation re-reads). Called by the swap and by retention; anything else that rewrites final
 * buckets must call it too.
 */
export async function bumpGeneration(db: Db, level: Level, nowMs: number): Promise<void> {
  await db
    .collection<WatermarkDoc>(WATERMARKS_COLLECTION)
    .updateOne(
      { _id: level },
      { $inc: { generation: 1 }, $set: { updatedAt: new Date(nowMs) } },
      { upsert: true },
    );
}

/** Read in `session` when given: a causally consistent session's reads then follow this one. */
export async function readWatermarkState(db: Db, session?: ClientSession): Promise<WatermarkState> {
  const docs = await db
    .collection<WatermarkDoc>(WATERMARKS_COLLECTION)
    .find({}, session ? { session } : {})
    .toArray();
  const state: WatermarkState = {
    finalBefore: {},
    generation: Object.fromEntries(LEVELS.map((level) => [level, 0])) as Record<Level, number>,
  };
  for (const doc of docs) {
    if (!(LEVELS as readonly string[]).includes(doc._id)) continue;
    if (doc.finalBefore instanceof Date) state.finalBefore[doc._id] = doc.finalBefore.getTime();
    state.generation[doc._id] = doc.generation ?? 0;
  }
  return state;
}
