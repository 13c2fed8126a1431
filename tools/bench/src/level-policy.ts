import {
  AUTO_SKIP_LEVEL,
  LEVELS,
  autoSkipDecision,
  suggestedModes,
  type Level,
  type LevelMode,
} from '@tickertape/buckets';
import { STOCK_METRIC, TRAFFIC_METRIC } from '@tickertape/producer';
import type { RollupStore } from '@tickertape/store';

/** The metrics of the benchmark's tick sets and live producer: both load profiles. */
export const BENCH_METRICS: readonly string[] = [STOCK_METRIC, TRAFFIC_METRIC];

/** The modes a run used, levels in full form left out ({} = the full layout everywhere). */
export type AppliedModes = Partial<Record<Level, Exclude<LevelMode, 'full'>>>;

/**
 * What a new user's stack does on its own for series at `perSecond` ticks a second: the
 * scheduler's automatic rule (`autoSkipDecision`, the job's own decision) applied to the bench's
 * metrics from `fromMs`, before any tick — as if the job had measured the density already.
 */
export async function applyDefaultPolicy(
  store: RollupStore,
  perSecond: number,
  fromMs: number,
): Promise<AppliedModes> {
  let policy = await store.readLevelPolicy();
  let skipped = false;
  for (const metric of BENCH_METRICS) {
    if (autoSkipDecision(policy, metric, perSecond * 60) !== 'skip') continue;
    policy = await store.changeAutoSkip({ kind: 'skip', metric, fromMs }, Date.now());
    skipped = true;
  }
  return skipped ? { [AUTO_SKIP_LEVEL]: 'skip' } : {};
}

/**
 * Sets, in `store`, the level policy the docs suggest for series at `perSecond` ticks a second
 * (`suggestedModes`): what an operator following docs/data-layout.md would set for such metrics.
 */
export async function applySuggestedPolicy(
  store: RollupStore,
  perSecond: number,
): Promise<AppliedModes> {
  const modes = suggestedModes(perSecond * 60);
  const applied: AppliedModes = {};
  for (const level of LEVELS) {
    const mode = modes[level];
    if (mode === 'full') continue;
    await store.changeLevelPolicy(level, BENCH_METRICS, mode, Date.now());
    applied[level] = mode;
  }
  return applied;
}

/** The weighted field of the sketch runs: a stock's price by its volume (VWAP). */
export const BENCH_WEIGHT = { metric: STOCK_METRIC, field: 'price', by: 'volume' } as const;

/**
 * Sets, in `store`, what an analyst who wants percentiles and VWAP would: quantile sketches on
 * both metrics and the stock price weighted by volume (docs/analysts.md).
 */
export async function applySketchPolicy(store: RollupStore): Promise<void> {
  await store.changeMetricPolicy({ kind: 'sketch', metrics: BENCH_METRICS, on: true }, Date.now());
  await store.changeMetricPolicy({ kind: 'weight', ...BENCH_WEIGHT }, Date.now());
}

/** "minute skip, hour compact", or "full" when nothing is changed. */
export function modesLabel(modes: AppliedModes | undefined): string {
  const parts = Object.entries(modes ?? {}).map(([level, mode]) => `${level} ${mode}`);
  return parts.length === 0 ? 'full' : parts.join(', ');
}
