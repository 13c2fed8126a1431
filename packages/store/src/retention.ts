import { retentionPlan, type RetentionPolicy, type RetentionVerdict } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import { listPartitionNames } from './partitions.js';
import { bumpGeneration, readWatermarks } from './watermarks.js';

export interface RetentionRun {
  verdicts: RetentionVerdict[];
  dropped: string[];
  dryRun: boolean;
}

/**
 * Drops the partition collections whose verdict is "drop" (retentionVerdict in
 * @tickertape/buckets says when); with `dryRun`, only reports what it would drop.
 */
export async function applyRetention(
  db: Db,
  nowMs: number,
  policy: RetentionPolicy,
  dryRun: boolean,
): Promise<RetentionRun> {
  const verdicts = retentionPlan(
    await listPartitionNames(db),
    nowMs,
    policy,
    await readWatermarks(db),
  );
  const dropped: string[] = [];
  if (!dryRun) {
    for (const verdict of verdicts) {
      if (!verdict.drop) continue;
      await db.collection(verdict.range.name).drop();
      // Dropped buckets were final: what readers kept of them goes with them.
      await bumpGeneration(db, verdict.range.level, nowMs);
      dropped.push(verdict.range.name);
    }
  }
  return { verdicts, dropped, dryRun };
}
