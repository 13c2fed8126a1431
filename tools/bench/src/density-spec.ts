import type { ProfileChoice } from './settings.js';
import type { TickSetSpec } from './tick-set.js';

/**
 * One density of the storage probe: both producer profiles (stock symbols and traffic sensors)
 * at the same rate per series, so the density is one number.
 */
export interface DensitySpec {
  /** Ticks per series per second of event time. */
  perSecond: number;
  stocks: number;
  traffic: number;
  /** Event-time span; whole minutes, so every minute bucket is a whole minute. */
  durationMs: number;
  /** Write under the level policy suggested for the density (level-policy.ts); default: full. */
  suggestedPolicy?: boolean;
  /** Quantile sketches on and the price weighted by volume (applySketchPolicy); default: off. */
  sketches?: boolean;
  /** Write under what the stack decides on its own for the density (applyDefaultPolicy). */
  defaults?: boolean;
}

const MINUTE = 60_000;

/**
 * Sized so each density writes a few tens of thousands of ticks at most on the shared 2-core
 * machine (10 ticks/s has fewer series for the same reason) over the same span, so hour buckets
 * hold as many minutes at every density. `smoke` only proves the probe runs.
 */
export const DENSITY_PRESETS: Readonly<Record<ProfileChoice, readonly DensitySpec[]>> = {
  full: [
    // One tick per 50 s: sparser than a minute, where a bucket holds one or two ticks.
    { perSecond: 0.02, stocks: 20, traffic: 100, durationMs: 10 * MINUTE },
    { perSecond: 0.25, stocks: 20, traffic: 100, durationMs: 10 * MINUTE },
    { perSecond: 1, stocks: 20, traffic: 100, durationMs: 10 * MINUTE },
    { perSecond: 10, stocks: 2, traffic: 4, durationMs: 10 * MINUTE },
    // One tick a minute under the defaults (the minute level skipped by the automatic rule), over a
    // whole hour: issue 38's sparse metric, whose bytes per tick come from the hour level alone.
    { perSecond: 1 / 60, stocks: 20, traffic: 100, durationMs: 60 * MINUTE, defaults: true },
  ],
  smoke: [
    { perSecond: 0.02, stocks: 2, traffic: 10, durationMs: 5 * MINUTE },
    { perSecond: 0.25, stocks: 2, traffic: 10, durationMs: 4 * MINUTE },
    { perSecond: 1, stocks: 2, traffic: 10, durationMs: 2 * MINUTE },
    { perSecond: 10, stocks: 1, traffic: 4, durationMs: MINUTE },
    { perSecond: 1 / 60, stocks: 2, traffic: 10, durationMs: 10 * MINUTE, defaults: true },
  ],
};

/**
 * The sketch probe: each density twice, sketches off and on, in the full layout, so the two differ
 * only by the sketch, spread and weighted parts. One tick a second and one a minute per series
 * (issue 36's two densities).
 */
export const SKETCH_DENSITY_PRESETS: Readonly<Record<ProfileChoice, readonly DensitySpec[]>> = {
  full: [1, 1 / 60].flatMap((perSecond) =>
    [false, true].map((sketches) => ({
      perSecond,
      stocks: 20,
      traffic: 100,
      durationMs: perSecond < 1 ? 60 * MINUTE : 10 * MINUTE,
      sketches,
    })),
  ),
  smoke: [1, 1 / 60].flatMap((perSecond) =>
    [false, true].map((sketches) => ({
      perSecond,
      stocks: 2,
      traffic: 4,
      durationMs: perSecond < 1 ? 10 * MINUTE : 2 * MINUTE,
      sketches,
    })),
  ),
};

/** The tick set of one density: `tickSet` of tick-set.ts with both profiles at its rate. */
export function densityTickSpec(spec: DensitySpec, seed: number, startMs: number): TickSetSpec {
  return {
    stocks: { series: spec.stocks, perSecond: spec.perSecond },
    traffic: { series: spec.traffic, perSecond: spec.perSecond },
    startMs,
    durationMs: spec.durationMs,
    seed,
  };
}

const HOUR = 60 * MINUTE;

/**
 * Where the probe's ticks start: the last whole hour before `nowMs` that leaves room for the
 * longest span, so every span lies inside one hour bucket per series, as at the start of a
 * live hour.
 */
export function densityStart(nowMs: number, specs: readonly DensitySpec[]): number {
  const longest = Math.max(0, ...specs.map((s) => s.durationMs));
  return Math.floor((nowMs - longest) / HOUR) * HOUR;
}
