import { LevelPolicy, isLevel, type Level, type LevelMode } from '@tickertape/buckets';
import type { Db } from 'mongodb';

/** One document per level: `{ _id: level, skip: [metric…], compact: [metric…], updatedAt }`. */
export const LEVEL_POLICY_COLLECTION = 'level_policy';

interface PolicyDoc {
  _id: Level;
  skip?: string[];
  compact?: string[];
  updatedAt: Date;
}

export async function readLevelPolicy(db: Db): Promise<LevelPolicy> {
  const docs = await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).find().toArray();
  const spec: Partial<Record<Level, { skip: string[]; compact: string[] }>> = {};
  for (const doc of docs)
    if (isLevel(doc._id)) spec[doc._id] = { skip: doc.skip ?? [], compact: doc.compact ?? [] };
  return new LevelPolicy(spec);
}

/**
 * Stores `metrics` in `mode` at `level` and returns the new policy. Checked whole before
 * writing, so a change that would leave a metric on no level (or ask for a form a level lacks)
 * is refused and stores nothing. Two operators changing the policy at once: the last write per
 * level wins.
 */
export async function changeLevelPolicy(
  db: Db,
  level: Level,
  metrics: readonly string[],
  mode: LevelMode,
  nowMs: number,
): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).with(level, metrics, mode);
  await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).updateOne(
    { _id: level },
    {
      $set: {
        skip: next.metricsAt(level, 'skip'),
        compact: next.metricsAt(level, 'compact'),
        updatedAt: new Date(nowMs),
      },
    },
    { upsert: true },
  );
  return next;
}
