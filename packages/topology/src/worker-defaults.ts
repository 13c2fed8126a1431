import { LEVELS, LEVEL_SPECS, type Level } from '@tickertape/buckets';
import type { Store } from './stores.js';

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

/**
 * What a worker holds at most before it writes, whatever the budget: `maxTicks` records of one
 * partition (FLUSH_MAX_TICKS), `maxBytes` of estimated heap over all partitions (HELD_MAX_BYTES).
 * The workers' defaults; the capacity model plans flushes with the same numbers.
 */
export const HOLD_DEFAULTS = {
  maxTicks: 100_000,
  maxBytes: 128 * 1024 * 1024,
} as const;

/**
 * How long a worker may hold consumed ticks before writing them, by store: the staleness of a
 * level's newest buckets (docs/freshness.md has what each buys in writes). The workers' defaults
 * (`FRESHNESS_BUDGET_MS`); the API's `FRESHNESS_BUDGETS` starts from them too, since an open
 * answer may be cached no longer than its level takes to change.
 */
export const FRESHNESS_BUDGET_DEFAULTS: Readonly<Record<Store, number>> = {
  ...(Object.fromEntries(
    LEVELS.map((level) => [level, LEVEL_SPECS[level].freshnessBudgetMs]),
  ) as Record<Level, number>),
  // A segment append rewrites its document: holding buys little there (docs/segments.md).
  segments: 0,
};

/** The rollup levels' budgets alone: how long the API may keep an answer with open slots. */
export const LEVEL_FRESHNESS_BUDGETS: Readonly<Record<Level, number>> = Object.fromEntries(
  LEVELS.map((level) => [level, LEVEL_SPECS[level].freshnessBudgetMs]),
) as Record<Level, number>;
