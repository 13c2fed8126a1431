import {
  NATIVE_WIDTHS_MS,
  PromQLError,
  PromQLErrorCode,
  type Matcher,
  type PointsRequest,
  type SampleSource,
  type SeriesPoints,
} from '@tickertape/promql';
import { slotsInRange, sourceFor, type Limits, type RollupReader } from '@tickertape/query';
import type { PromCatalog } from './catalog.js';
import { mapLimited } from './map-limited.js';
import { widthPointOf } from './width-point.js';

/** Series read at once: the seed's 50 sensors in a few rounds, never a burst of hundreds of finds. */
const CONCURRENT_READS = 8;

/**
 * The PromQL evaluator's data: the series a selector names (the catalog) and their points at the
 * width asked (the reader's `stepped`, one level, whole buckets or their sub-slots). The whole
 * read is priced before any document is: series × buckets against the reader's document budget.
 */
export function rollupSampleSource(
  reader: RollupReader,
  catalog: PromCatalog,
  limits: Limits,
  /** The request's: no read starts once it aborts. */
  signal?: AbortSignal,
): SampleSource {
  const reads = signal === undefined ? reader : reader.withSignal(signal);
  return {
    widths: NATIVE_WIDTHS_MS.filter((w) => sourceFor(w, reader.levels) !== undefined),
    async read(matchers: readonly Matcher[], request: PointsRequest) {
      const range = { fromMs: request.fromMs, toMs: request.toMs };
      const selected = await catalog.select(matchers, range, signal);
      const source = sourceFor(request.widthMs, reader.levels)!;
      const planned = selected.length * slotsInRange(source.level, range.fromMs, range.toMs);
      if (planned > limits.maxDocuments)
        throw new PromQLError(
          PromQLErrorCode.TooLarge,
          `the query would read up to ${planned} documents (${selected.length} series × ${source.level} buckets); the limit is ${limits.maxDocuments}: narrow the range or the selector`,
        );
      const open = new Set<string>();
      const series = await mapLimited(
        selected,
        CONCURRENT_READS,
        async (s): Promise<SeriesPoints> => {
          const result = await reads.stepped({
            series: s.series,
            field: s.field,
            ...range,
            stepMs: request.widthMs,
          });
          for (const level of result.openLevels) open.add(level);
          return { labels: s.labels, points: result.points.map(widthPointOf) };
        },
        signal,
      );
      return { series, openLevels: [...open] };
    },
  };
}
