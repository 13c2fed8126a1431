import {
  LEVELS,
  LEVEL_SPECS,
  floorTo,
  partitionOf,
  timeVerdict,
  type Level,
} from '@tickertape/buckets';
import {
  checkEncodedSize,
  DEFAULT_TICK_LIMITS,
  TickRejectedError,
  validateTick,
  type Tick,
} from '@tickertape/tick';
import type { Store } from '@tickertape/topology';

/** Whether a store a backfill fills is a rollup level (not the segment store). */
export function isRollupLevel(store: Store): store is Level {
  return store !== 'segments';
}

const DAY = 86_400_000;

/**
 * The scheduler's retention defaults (the table of levels; RETENTION in services/scheduler/src/env.ts; a unit
 * test keeps the two equal): a backfill must not write what the next retention run drops.
 */
export const DEFAULT_RETENTION_MS: Readonly<Record<Store, number>> = {
  ...(Object.fromEntries(LEVELS.map((level) => [level, LEVEL_SPECS[level].retentionMs])) as Record<
    Level,
    number
  >),
  segments: 7 * DAY,
};

/** End of the collection `ts` lands in: its level's partition, or its day for the segments. */
export function collectionEnd(store: Store, ts: number): number {
  if (isRollupLevel(store)) return partitionOf(store, ts).endMs;
  // Segment collections hold one UTC day each (segments_<YYYYMMDD>).
  return floorTo(ts, DAY) + DAY;
}

/**
 * Whether the scheduler's retention would drop the collection `ts` lands in: it ended longer ago
 * than the store's retention (retentionVerdict's first rule; the others — finality, lateness —
 * hold long before a default retention has passed). Writing there would recreate a dropped
 * partition holding a stray fragment, which the next retention run drops again.
 */
export function pastRetention(
  store: Store,
  ts: number,
  nowMs: number,
  retentionMs: number,
): boolean {
  return collectionEnd(store, ts) <= nowMs - retentionMs;
}

/**
 * Checks a parsed line as a worker checks a record — the same validation, the same OVERSIZED
 * rule, the same reasons — and refuses an event time further ahead of `nowMs` than
 * `maxFutureMs`, as a worker does against its record's time. No lateness bound: old ticks are
 * what a backfill is for. Throws a TickRejectedError; returns the tick as validated.
 */
export function admitTick(tick: Tick, nowMs: number, maxFutureMs: number): Tick {
  const valid = validateTick(tick, DEFAULT_TICK_LIMITS);
  checkEncodedSize(valid, DEFAULT_TICK_LIMITS);
  if (timeVerdict(valid.ts, nowMs, { maxLatenessMs: Infinity, maxFutureMs }) === 'future') {
    throw new TickRejectedError(
      'TIMESTAMP_OUT_OF_RANGE',
      `event time ${new Date(valid.ts).toISOString()} is more than ${maxFutureMs} ms after now (${new Date(nowMs).toISOString()})`,
    );
  }
  return valid;
}
