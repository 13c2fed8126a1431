import {
  segmentRetentionPlan,
  type SegmentRetentionPolicy,
  type SegmentRetentionRun,
} from '@tickertape/segments';
import type { Db } from 'mongodb';
import { listSegmentDays } from './day-collections.js';

const NAMESPACE_NOT_FOUND = 26;

/** SegmentStore.applyRetention: the days are listed from the server on every run. */
export async function applySegmentRetention(
  db: Db,
  nowMs: number,
  policy: SegmentRetentionPolicy,
  dryRun: boolean,
): Promise<SegmentRetentionRun> {
  const wouldDrop = segmentRetentionPlan(await listSegmentDays(db), nowMs, policy)
    .filter((verdict) => verdict.drop)
    .map((verdict) => verdict.segmentDay.collection);
  const dropped: string[] = [];
  if (!dryRun) {
    for (const name of wouldDrop) {
      try {
        await db.collection(name).drop();
      } catch (err) {
        // Gone since it was listed (a run triggered by hand next to the scheduled one): the
        // outcome wanted. MongoDB before 7.0 answers a drop of a missing collection this way.
        if ((err as { code?: unknown }).code !== NAMESPACE_NOT_FOUND) throw err;
      }
      dropped.push(name);
    }
  }
  return { wouldDrop, dropped };
}
