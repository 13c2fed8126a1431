export {
  backfill,
  type BackfillIo,
  type BackfillOptions,
  type BackfillStores,
} from './backfill/run.js';
export type { BackfillReport, Refusal } from './backfill/report.js';
export type { RejectGroup } from './backfill/rejects.js';
export type { ShadowOutcome } from './backfill/shadows.js';
export type { LevelTally, SegmentTally } from './backfill/writer.js';
export { BackfillError, BackfillErrorCode } from './backfill/backfill-error.js';
export { DEFAULT_RETENTION_MS } from './backfill/time-rules.js';
export { foldInputOf, isBackfillSource, sourcePartition } from './backfill/source.js';
export {
  checkRebuildRange,
  rebuild,
  type RebuildReport,
  type SwappedPartition,
} from './rebuild/run.js';
export type { RebuildIo, SourceRead } from './rebuild/fold.js';
export {
  topicSources,
  type PlannedPartition,
  type RebuildOptions,
  type RebuildPlan,
  type Sources,
} from './rebuild/plan.js';
export { defaultSource, type RebuildSource } from './rebuild/range-checks.js';
export { RebuildError, RebuildErrorCode } from './rebuild/rebuild-error.js';
export type { Progress, StartProgress } from './progress.js';
export { formatDuration, isoTime, plural } from './words.js';
