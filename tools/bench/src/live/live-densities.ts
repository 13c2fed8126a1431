import type { DensitySpec } from '../density-spec.js';
import type { ProfileChoice } from '../settings.js';

const MINUTE = 60_000;

/**
 * Stored bytes per tick at the live grid's densities, loaded through the workers' fold and writer
 * with synthetic offsets (density.ts) over a whole hour, so every hour bucket is as full as a
 * live one at the end of its hour — what a sparse cell's minute of live traffic cannot show.
 * Series are fewer at higher rates to keep each density to a few tens of thousands of ticks.
 * Each is written under the level policy the docs suggest for its density (at 1/s and above:
 * the full layout), and the sparse ones once more in the full layout, for the before/after.
 */
export const LIVE_DENSITIES: Readonly<Record<ProfileChoice, readonly DensitySpec[]>> = {
  full: [
    { perSecond: 1 / 60, stocks: 20, traffic: 100, durationMs: 60 * MINUTE, suggestedPolicy: true },
    { perSecond: 0.1, stocks: 20, traffic: 100, durationMs: 60 * MINUTE, suggestedPolicy: true },
    { perSecond: 1, stocks: 2, traffic: 8, durationMs: 60 * MINUTE, suggestedPolicy: true },
    { perSecond: 10, stocks: 1, traffic: 1, durationMs: 60 * MINUTE, suggestedPolicy: true },
    // The sparse densities again in the full layout: what they stored before the level policy.
    { perSecond: 1 / 60, stocks: 20, traffic: 100, durationMs: 60 * MINUTE },
    { perSecond: 0.1, stocks: 20, traffic: 100, durationMs: 60 * MINUTE },
  ],
  smoke: [
    { perSecond: 1 / 60, stocks: 2, traffic: 10, durationMs: 60 * MINUTE, suggestedPolicy: true },
    { perSecond: 1, stocks: 1, traffic: 1, durationMs: 10 * MINUTE, suggestedPolicy: true },
    { perSecond: 1 / 60, stocks: 2, traffic: 10, durationMs: 60 * MINUTE },
  ],
};
