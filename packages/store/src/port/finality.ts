import type { Level } from '@tickertape/buckets';
import type { ReadSession } from './read-session.js';

/** Each level's watermark (epoch ms, absent before the scheduler's first run) and generation. */
export interface WatermarkState {
  finalBefore: Partial<Record<Level, number>>;
  generation: Record<Level, number>;
}

export interface Finality {
  /** With `session`, the reads of a query after it are causally after these watermarks. */
  readWatermarks(session?: ReadSession): Promise<WatermarkState>;
  /** Moves watermarks forward, never back. */
  advanceWatermarks(marks: Readonly<Partial<Record<Level, number>>>, nowMs: number): Promise<void>;
  /** Records that final buckets of `level` changed (a swap, a retention drop). */
  bumpGeneration(level: Level, nowMs: number): Promise<void>;
  /** A session for one query's reads when `capabilities.causalReads`; `undefined` otherwise. */
  beginReads(): ReadSession | undefined;
}
