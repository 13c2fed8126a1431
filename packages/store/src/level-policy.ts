import { LevelPolicy, isLevel, type Level } from '@tickertape/buckets';
import type { Db } from 'mongodb';

/** One document per level that skips metrics: `{ _id: level, skip: [metric…], updatedAt }`. */
export const LEVEL_POLICY_COLLECTION = 'level_policy';

interface PolicyDoc {
  _id: Level;
  skip: string[];
  updatedAt: Date;
}

export async function readLevelPolicy(db: Db): Promise<LevelPolicy> {
  const docs = await db.collection<PolicyDoc>(LEVEL_POLICY_COLLECTION).find().toArray();
  const skip: Partial<Record<Level, string[]>> = {};
  for (const doc of docs) if (isLevel(doc._id)) skip[doc._id] = doc.skip ?? [];
  return new LevelPolicy(skip);
}

/**
 * Skips `metrics` at `level` (or keeps them again) and returns the new policy. Checked whole
 * before writing, so a change that would leave a metric on no level is refused and stores
 * nothing. Two operators changing the policy at once: the last write per level wins.
 */
export async function changeLevelPolicy(
  db: Db,
  level: Level,
  metrics: readonly string[],
  skip: boolean,
  nowMs: number,
): Promise<LevelPolicy> {
  const next = (await readLevelPolicy(db)).with(level, metrics, skip);
  await db
    .collection<PolicyDoc>(LEVEL_POLICY_COLLECTION)
    .updateOne(
      { _id: level },
      { $set: { skip: next.skippedAt(level), updatedAt: new Date(nowMs) } },
      { upsert: true },
    );
  return next;
}

/**
 * The policy as a writer sees it: read at the first flush and again once it is `refreshMs` old,
 * so a change reaches running workers without a restart. Which flush is the first to follow a
 * change is not defined: set a metric's policy before its producers start, or rebuild the range
 * afterwards (docs/data-layout.md).
 */
export class LevelPolicySource {
  private policy: LevelPolicy | undefined;
  private readAt = 0;

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async current(): Promise<LevelPolicy> {
    const t = this.now();
    if (this.policy === undefined || t - this.readAt >= this.refreshMs) {
      this.policy = await readLevelPolicy(this.db);
      this.readAt = t;
    }
    return this.policy;
  }
}
