import { LevelPolicy, isLevel, type Level, type LevelMode } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import type { Upkeep } from './port/upkeep.js';

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

/**
 * The policy as a writer sees it: read at the first flush and again once it is `refreshMs` old,
 * so a change reaches running workers without a restart. Which flush is the first to follow a
 * change is not defined: set a metric's policy before its producers start, or rebuild the range
 * afterwards (docs/data-layout.md).
 */
export class LevelPolicySource {
  private policy: LevelPolicy | undefined;
  private readAt = 0;

  // A store (the query library's reader) or, until the writers move onto the port, a Db.
  constructor(
    private readonly source: Db | Pick<Upkeep, 'readLevelPolicy'>,
    private readonly refreshMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async current(): Promise<LevelPolicy> {
    const t = this.now();
    if (this.policy === undefined || t - this.readAt >= this.refreshMs) {
      this.policy = await ('readLevelPolicy' in this.source
        ? this.source.readLevelPolicy()
        : readLevelPolicy(this.source));
      this.readAt = t;
    }
    return this.policy;
  }
}
