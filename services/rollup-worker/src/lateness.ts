export type Timeliness = 'ok' | 'too-late' | 'future';

/**
 * Whether a tick's event time is inside the window this worker still writes. The window is on
 * the wall clock: a tick older than the lateness bound may belong to a partition the scheduler
 * has finalised or dropped, so it goes to the DLQ instead of reopening history.
 */
export function timeliness(
  eventTs: number,
  nowMs: number,
  maxLatenessMs: number,
  maxFutureMs: number,
): Timeliness {
  if (eventTs < nowMs - maxLatenessMs) return 'too-late';
  if (eventTs > nowMs + maxFutureMs) return 'future';
  return 'ok';
}
