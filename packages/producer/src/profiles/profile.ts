import type { Series, Tick } from '@tickertape/tick';

export const PROFILE_NAMES = ['stocks', 'traffic'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface ProfileOptions {
  /** How many series (symbols, sensors) the profile cycles through. */
  series: number;
  /** Same seed, same series and same values, in the same order. */
  seed: number;
}

/**
 * A deterministic source of ticks. It visits its series round robin, so at an overall rate R
 * each of N series gets a reading every N/R seconds — the seeds' "one reading per interval per
 * sensor". Pure apart from its own seeded state: the event time comes from the caller.
 */
export interface LoadProfile {
  readonly name: ProfileName;
  /** Every series, in the order `next` visits them. */
  readonly series: readonly Series[];
  /** The next tick, stamped with `ts` (ms since the epoch). */
  next(ts: number): Tick;
}

export function checkProfileOptions(options: ProfileOptions): void {
  if (!Number.isInteger(options.series) || options.series < 1) {
    throw new RangeError(`series must be a positive integer, not ${options.series}`);
  }
  if (!Number.isInteger(options.seed)) {
    throw new RangeError(`seed must be an integer, not ${options.seed}`);
  }
}
