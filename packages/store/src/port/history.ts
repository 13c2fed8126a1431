import type { Level } from '@tickertape/buckets';

/** `running` folds into shadows, `swapping` puts them in place; `done`, `failed` are final. */
export type RunState = 'running' | 'swapping' | 'done' | 'failed';

export interface HistoryRun {
  id: string;
  kind: 'rebuild' | 'backfill';
  level: Level;
  fromMs: number;
  toMs: number;
  /** Where the buckets come from: `topic`, a level, a file… */
  source: string;
  state: RunState;
  /** The live partitions the run replaces, by name. */
  partitions: string[];
  startedAtMs: number;
  updatedAtMs: number;
  detail?: string;
}

export interface RunStart {
  id: string;
  kind: HistoryRun['kind'];
  level: Level;
  fromMs: number;
  toMs: number;
  source: string;
  partitions: string[];
}

/** A live partition's part of a run: built beside it in a shadow, checked, then swapped in. */
export interface ShadowPartition {
  level: Level;
  /** The live partition. */
  live: string;
  shadow: string;
  /** The part of the run's range inside this partition: slot starts in `[fromMs, toMs)`. */
  fromMs: number;
  toMs: number;
  /** The range covers the whole partition. */
  whole: boolean;
}

export interface SwapResult {
  live: string;
  /** Where the live buckets the swap took out are kept until `cleanupReplaced`. */
  replacedCollection: string;
  /** `rename`: the shadow became the partition; `documents`: bucket by bucket. */
  method: 'rename' | 'documents';
  /** Buckets of the shadow now live. */
  written: number;
  /** Live buckets saved into the replaced collection. */
  saved: number;
  /** Live buckets in the range that the shadow does not have, deleted. */
  deleted: number;
  /** An earlier call had swapped this partition already; nothing was done. */
  resumed: boolean;
}

export interface CleanupOptions {
  dryRun?: boolean;
  /** A run still `running`/`swapping` but not updated for this long is abandoned. Default 1 h. */
  abandonedAfterMs?: number;
  nowMs?: number;
}

/** Rebuilds' and backfills' runs and their shadows (docs/history.md). */
export interface History {
  /** Starts a run, or resumes the unfinished one with the same kind, level, range and source. */
  startRun(start: RunStart, nowMs: number): Promise<{ run: HistoryRun; resumed: boolean }>;
  /** Moves a run on (or just marks it alive: a run not updated for long counts as abandoned). */
  updateRun(
    id: string,
    nowMs: number,
    patch?: { state?: RunState; detail?: string },
  ): Promise<void>;
  listRuns(): Promise<HistoryRun[]>;
  /** An empty shadow with the partition's indexes. */
  prepareShadow(part: ShadowPartition): Promise<void>;
  /** Copies into the shadow the live buckets of the partition outside the run's range. */
  seedShadow(part: ShadowPartition): Promise<number>;
  /**
   * Puts the shadow in place of its range of the live partition, resumably; bumps the generation.
   * `method` forces a way (tests); by default a whole partition is renamed into place where the
   * server renames safely (`capabilities.renamesSafely`), anything else goes bucket by bucket.
   */
  swapShadow(
    part: ShadowPartition,
    options?: { method?: SwapResult['method'] },
  ): Promise<SwapResult>;
  /** Drops replaced copies and the shadows of runs that are over; returns their names. */
  cleanupReplaced(options?: CleanupOptions): Promise<string[]>;
}
