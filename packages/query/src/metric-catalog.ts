import type { RollupStore } from '@tickertape/store';
import { checkRange, type ReaderContext } from './limits.js';

/** A metric with data in a range, and the field and tag names a sample of its buckets holds. */
export interface MetricInfo {
  metric: string;
  fields: string[];
  tags: string[];
}

/** Buckets per metric whose names are listed: enough for a metric's usual names, bounded in cost. */
const SAMPLE_BUCKETS = 50;

/**
 * The metrics with data in [from, to) at the coarsest running level, each with the field and
 * tag names of up to 50 of its buckets. The names are a sample: a field only a few series have
 * may be missing here, though reads by that name still find it (see the series discovery).
 */
export async function metricCatalog(
  store: RollupStore,
  ctx: ReaderContext,
  range: { fromMs: number; toMs: number },
): Promise<MetricInfo[]> {
  checkRange(range.fromMs, range.toMs);
  const level = ctx.levels[ctx.levels.length - 1]!;
  return store.listMetrics({ level, fromMs: range.fromMs, toMs: range.toMs }, SAMPLE_BUCKETS);
}
