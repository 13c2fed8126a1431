import { AUTO_SKIP_LEVEL, LEVELS, type LevelPolicy } from '@tickertape/buckets';
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
        {
          skip: policy.metricsAt(level, 'skip'),
          compact: policy.metricsAt(level, 'compact'),
          // Kept by the operator's word, out of the automatic rule's reach (levels keep minute).
          pinned: level === AUTO_SKIP_LEVEL ? policy.pinnedMetrics() : [],
        },
      ]),
    ),
    sketch: policy.sketchedMetrics().map((metric) => ({
      metric,
      alpha: policy.sketchAlpha(metric),
    })),
    weights: policy.weights(),
    // The minute level skipped automatically for sparse metrics (scheduler job auto-skip).
    autoSkips: policy.autoSkips(),
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
