export type Timeliness = 'ok' | 'too-late' | 'future';

export interface TimeBounds {
  /** A tick older than its record's time by more than this is too late. */
  maxLatenessMs: number;
  /** A tick newer than its record's time by more than this is out of range. */
  maxFutureMs: number;
}

/**
 * Whether a tick's event time is inside the window the live path writes, judged against the
 * time of the Kafka record that carried it (the broker's append time on our topics), never the
 * worker's clock: the record's time is stored in the log, so a replay next month reaches the same
 * verdict as today's run. Anything older than the lateness bound is history, which the live path
 * leaves to backfill and rebuild (docs/history.md); negative times are always out of range.
 */
export function timeVerdict(eventTs: number, recordTs: number, bounds: TimeBounds): Timeliness {
  if (eventTs < 0 || eventTs > recordTs + bounds.maxFutureMs) return 'future';
  if (eventTs < recordTs - bounds.maxLatenessMs) return 'too-late';
  return 'ok';
}
