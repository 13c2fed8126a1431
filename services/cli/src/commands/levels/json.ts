import { LEVELS, type LevelPolicy } from '@tickertape/buckets';
import type { Suggestion } from './run.js';

/**
 * `tickertape levels … --format json`: the policy as data, every level listed (empty lists where
 * it keeps every metric), so a script need not know which levels exist.
 */
export function policyJson(policy: LevelPolicy): Record<string, unknown> {
  return {
    levels: Object.fromEntries(
      LEVELS.map((level) => [
        level,
        { skip: policy.metricsAt(level, 'skip'), compact: policy.metricsAt(level, 'compact') },
      ]),
    ),
    sketch: policy.sketchedMetrics().map((metric) => ({
      metric,
      alpha: policy.sketchAlpha(metric),
    })),
    weights: policy.weights(),
  };
}

/** `tickertape levels suggest --format json`: what was measured, and the policy if applied. */
export function suggestionsJson(
  suggestions: readonly Suggestion[],
  hours: number,
  applied: LevelPolicy | undefined,
): Record<string, unknown> {
  return {
    hours,
    suggestions,
    ...(applied === undefined ? {} : { applied: policyJson(applied) }),
  };
}
