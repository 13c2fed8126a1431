import { AUTO_SKIP_LEVEL, type LevelPolicy } from './level-policy.js';
import { LEVELS } from './levels.js';

const MINUTE_MS = 60_000;

/** How often writers and readers re-read the stored policy (`LevelPolicySource` in @tickertape/store). */
export const POLICY_REFRESH_MS = 10_000;

/**
 * At or below this many ticks per series a minute the minute level is skipped by default: a
 * minute bucket then holds one tick in ~900 bytes, while the hour bucket's per-minute aggregate
 * holds that minute exactly (benchmarks.md, "Stored bytes per tick at the grid's densities").
 */
export const AUTO_SKIP_AT_PER_MINUTE = 1;
/**
 * Above this many the minute level is written again. Twice the skip threshold, so a metric near
 * one tick a minute (jitter, a late batch) does not switch on and off every run.
 */
export const AUTO_KEEP_ABOVE_PER_MINUTE = 2;

/** What the automatic rule decides for one metric: start skipping, stop, or leave it. */
export type AutoSkipDecision = 'skip' | 'keep' | 'none';

/**
 * The rule, pure: a metric measured at `perMinute` ticks per series a minute (from the hour
 * buckets, which every auto-skipped metric keeps in full) starts being skipped at the minute level
 * at or below AUTO_SKIP_AT_PER_MINUTE and is written there again above AUTO_KEEP_ABOVE_PER_MINUTE.
 * Only a metric the operator left alone is touched: one the operator skips or compacts at some
 * level is theirs (a compact hour keeps a minute's mean only, so the minute level is its only
 * exact copy), and so is one they pinned (`levels keep minute`), whatever its density — a span of
 * it still open (opened while the pin was being stored) is closed.
 */
export function autoSkipDecision(
  policy: LevelPolicy,
  metric: string,
  perMinute: number,
): AutoSkipDecision {
  if (policy.pins(metric)) return policy.autoSkipping(AUTO_SKIP_LEVEL, metric) ? 'keep' : 'none';
  const operatorSet = LEVELS.some((level) => {
    const mode = policy.mode(level, metric);
    return mode !== 'full' && !(level === AUTO_SKIP_LEVEL && policy.autoSkipping(level, metric));
  });
  if (operatorSet) return 'none';
  const skipping = policy.autoSkipping(AUTO_SKIP_LEVEL, metric);
  if (!skipping && perMinute <= AUTO_SKIP_AT_PER_MINUTE) return 'skip';
  if (skipping && perMinute > AUTO_KEEP_ABOVE_PER_MINUTE) return 'keep';
  return 'none';
}

/**
 * The first minute a decision taken at `nowMs` may apply to. A tick of a slot at or after it sits
 * in a record appended at most `maxFutureMs` before its time (workers refuse ticks further ahead),
 * so it is read after `nowMs + marginMs`, when every writer has re-read the policy (writers
 * re-read it every `refreshMs`; `marginMs` covers that and the clocks' skew). Every tick of a
 * slot is then judged by one policy, whichever worker, flush or redelivery writes it: no tick
 * is lost or counted twice across the switch.
 */
export function autoSkipBoundary(
  nowMs: number,
  maxFutureMs: number,
  refreshMs: number,
  marginMs = MINUTE_MS,
): number {
  const earliest = nowMs + maxFutureMs + refreshMs + marginMs;
  return Math.ceil(earliest / MINUTE_MS) * MINUTE_MS;
}
