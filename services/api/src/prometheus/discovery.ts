import {
  PromQLError,
  PromQLErrorCode,
  cut,
  labelOfTag,
  parsePromQL,
  type Matcher,
} from '@tickertape/promql';
import type { RollupReader } from '@tickertape/query';
import { checkMatchCount, tooManySeries, type PromBounds } from './bounds.js';
import type { PromCatalog, Range, SelectedSeries } from './catalog.js';
import { mapLimited } from './map-limited.js';

/** `match[]` values, counted first: each must be a plain selector within the query bounds. */
export function parseMatchers(selectors: readonly string[], bounds: PromBounds): Matcher[][] {
  checkMatchCount(selectors, bounds);
  return selectors.map((text) => {
    const expr = parsePromQL(text, bounds.query);
    if (expr.kind !== 'selector' || expr.selector.offsetMs !== 0)
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        `invalid parameter "match[]": ${JSON.stringify(cut(text))} is not a series selector`,
      );
    return expr.selector.matchers;
  });
}

/** Selectors looked up at once: 64 `match[]` in 8 rounds, never a burst of hundreds of finds. */
const CONCURRENT_SELECTORS = 8;

/**
 * The series any of the selectors selects, each once, the selectors read concurrently; an answer
 * past the series bound is refused as soon as the union passes it.
 */
export async function selectAll(
  catalog: PromCatalog,
  selectors: readonly Matcher[][],
  range: Range,
  bounds: PromBounds,
  signal?: AbortSignal,
): Promise<SelectedSeries[]> {
  const found = new Map<string, SelectedSeries>();
  await mapLimited(
    selectors,
    CONCURRENT_SELECTORS,
    async (matchers) => {
      for (const s of await catalog.select(matchers, range, signal))
        found.set(`${s.series}\u0000${s.field}`, s);
      if (found.size > bounds.answerSeries.limit) throw tooManySeries(found.size, bounds);
    },
    signal,
  );
  return [...found.values()];
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** `/labels`: `__name__` and every tag's label name, of the selected series or of every metric. */
export async function labelNames(
  catalog: PromCatalog,
  selectors: readonly Matcher[][],
  range: Range,
  bounds: PromBounds,
  signal?: AbortSignal,
): Promise<string[]> {
  if (selectors.length > 0)
    return sorted(
      (await selectAll(catalog, selectors, range, bounds, signal)).flatMap((s) =>
        Object.keys(s.labels),
      ),
    );
  const names = await catalog.names(range);
  return sorted(['__name__', ...names.flatMap((entry) => [...entry.tagOfLabel.keys()])]);
}

/** Prometheus' label names (model.LabelNameRE): `/label/0/values` is its 400 `bad_data`. */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** `/label/<name>/values`: from the selected series, or from every metric carrying the label. */
export async function labelValues(
  reader: RollupReader,
  catalog: PromCatalog,
  label: string,
  selectors: readonly Matcher[][],
  range: Range,
  maxSeries: number,
  bounds: PromBounds,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!LABEL_NAME.test(label))
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      `invalid label name: ${JSON.stringify(cut(label))}`,
    );
  if (!LABEL_NAME.test(label))
    throw new PromQLError(
      PromQLErrorCode.BadParameter,
      `invalid label name: ${JSON.stringify(cut(label))}`,
    );
  if (selectors.length > 0)
    return sorted(
      (await selectAll(catalog, selectors, range, bounds, signal)).flatMap((s) =>
        s.labels[label] === undefined ? [] : [s.labels[label]],
      ),
    );
  if (label === '__name__') return sorted((await catalog.names(range)).map((entry) => entry.name));
  const values: string[] = [];
  const reads = signal === undefined ? reader : reader.withSignal(signal);
  for (const info of await catalog.metrics(range)) {
    const tags = info.tags.filter((tag) => labelOfTag(tag) === label);
    if (tags.length === 0) continue;
    const found = await reads.series({ metric: info.metric, ...range, limit: maxSeries });
    if (found.truncated)
      throw new PromQLError(
        PromQLErrorCode.TooLarge,
        `metric ${info.metric} has more than ${maxSeries} series in the range: give match[] to narrow it`,
      );
    for (const s of found.series)
      for (const [tag, value] of Object.entries(s.tags))
        if (labelOfTag(tag) === label) values.push(value);
  }
  return sorted(values);
}
