import { LEVELS, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';

/** One document per level: every slot ending at or before `finalBefore` is final. */
export const WATERMARKS_COLLECTION = 'watermarks';

interface WatermarkDoc {
  _id: Level;
  finalBefore: Date;
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

export async function readWatermarks(db: Db): Promise<Partial<Record<Level, number>>> {
  const docs = await db.collection<WatermarkDoc>(WATERMARKS_COLLECTION).find().toArray();
  const marks: Partial<Record<Level, number>> = {};
  for (const doc of docs)
    if ((LEVELS as readonly string[]).includes(doc._id)) marks[doc._id] = doc.finalBefore.getTime();
  return marks;
}
