const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The live path's window on event time, relative to each Kafka record's time: a tick older than
 * its record by more than `maxLatenessMs` is history (backfill's, not the workers'), one further
 * ahead than `maxFutureMs` is out of range. The workers' defaults; the scheduler's finality, the
 * checker, backfill and rebuild must judge with the same numbers, so they all start from these.
 */
export const TIME_WINDOW_DEFAULTS = {
  maxLatenessMs: 6 * HOUR_MS,
  maxFutureMs: 5 * MINUTE_MS,
} as const;

/** A worker's fetch: it returns at `minBytes` per fetch or after `maxWaitMs`. */
export const FETCH_DEFAULTS = {
  maxWaitMs: 500,
  minBytes: 64 * 1024,
} as const;
