import { retentionPlan, type RetentionPolicy } from '@tickertape/buckets';
import type { Db } from 'mongodb';
import type { RetentionRun } from '../port/upkeep.js';
import { listPartitionNames } from './partitions.js';
import { bumpGeneration, readWatermarkState } from './watermarks.js';

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
    (await readWatermarkState(db)).finalBefore,
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
