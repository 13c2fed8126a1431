import {
  PromQLError,
  PromQLErrorCode,
  labelOfTag,
  parsePromQL,
  type Matcher,
} from '@tickertape/promql';
import type { RollupReader } from '@tickertape/query';
import type { PromCatalog, Range, SelectedSeries } from './catalog.js';

/** `match[]` values: each must be a plain selector. */
export function parseMatchers(selectors: readonly string[]): Matcher[][] {
  return selectors.map((text) => {
    const expr = parsePromQL(text);
    if (expr.kind !== 'selector' || expr.selector.offsetMs !== 0)
      throw new PromQLError(
        PromQLErrorCode.BadParameter,
        `invalid parameter "match[]": ${JSON.stringify(text)} is not a series selector`,
      );
    return expr.selector.matchers;
  });
}

/** The series any of the selectors selects, each once. */
export async function selectAll(
  catalog: PromCatalog,
  selectors: readonly Matcher[][],
  range: Range,
): Promise<SelectedSeries[]> {
  const found = new Map<string, SelectedSeries>();
  for (const matchers of selectors)
    for (const s of await catalog.select(matchers, range))
      found.set(`${s.series}\u0000${s.field}`, s);
  return [...found.values()];
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** `/labels`: `__name__` and every tag's label name, of the selected series or of every metric. */
export async function labelNames(
  catalog: PromCatalog,
  selectors: readonly Matcher[][],
  range: Range,
): Promise<string[]> {
  if (selectors.length > 0)
    return sorted(
      (await selectAll(catalog, selectors, range)).flatMap((s) => Object.keys(s.labels)),
    );
  const names = await catalog.names(range);
  return sorted(['__name__', ...names.flatMap((entry) => [...entry.tagOfLabel.keys()])]);
}

/** `/label/<name>/values`: from the selected series, or from every metric carrying the label. */
export async function labelValues(
  reader: RollupReader,
  catalog: PromCatalog,
  label: string,
  selectors: readonly Matcher[][],
  range: Range,
  maxSeries: number,
): Promise<string[]> {
  if (selectors.length > 0)
    return sorted(
      (await selectAll(catalog, selectors, range)).flatMap((s) =>
        s.labels[label] === undefined ? [] : [s.labels[label]],
      ),
    );
  if (label === '__name__') return sorted((await catalog.names(range)).map((entry) => entry.name));
  const values: string[] = [];
  for (const info of await catalog.metrics(range)) {
    const tags = info.tags.filter((tag) => labelOfTag(tag) === label);
    if (tags.length === 0) continue;
    const found = await reader.series({ metric: info.metric, ...range, limit: maxSeries });
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
