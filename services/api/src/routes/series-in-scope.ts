import type { RollupReader, SeriesQuery, SeriesResult } from '@tickertape/query';
import type { MetricScope } from '../token-scope.js';

/**
 * /series as the token's scope sees it. A metric named is checked (403 outside the scope); a
 * listing without one, for a scoped token, asks per metric of the scope that has data in the
 * range — filtering one listing afterwards would cut it at `limit` before the scope, and give
 * a scoped token fewer series than exist. Metrics in name order, as series keys sort.
 */
export async function seriesInScope(
  reader: RollupReader,
  scope: MetricScope,
  query: SeriesQuery,
): Promise<SeriesResult> {
  if (query.metric !== undefined) scope.checkMetric(query.metric);
  if (query.metric !== undefined || scope.all) return reader.series(query);
  const range = { fromMs: query.fromMs, toMs: query.toMs };
  const metrics = (await reader.metrics(range))
    .map((info) => info.metric)
    .filter((metric) => scope.allows(metric))
    .sort();
  const result: SeriesResult = {
    series: [],
    level: reader.levels.at(-1)!,
    examined: 0,
    truncated: false,
  };
  for (const metric of metrics) {
    const room = query.limit - result.series.length;
    // Full: one more series of any later metric says the listing is truncated, as reader.series says it.
    const found = await reader.series({ ...query, metric, limit: Math.max(room, 1) });
    result.examined += found.examined;
    result.level = found.level;
    if (room === 0) {
      if (found.series.length > 0) return { ...result, truncated: true };
      continue;
    }
    result.series.push(...found.series);
    if (found.truncated) return { ...result, truncated: true };
  }
  return result;
}
