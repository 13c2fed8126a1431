import {
  PromQLError,
  PromQLErrorCode,
  labelOfTag,
  matchesAll,
  matchesValue,
  labelsOf,
  metricName,
  type Matcher,
} from '@tickertape/promql';
import { ceilTo, floorTo } from '@tickertape/buckets';
import type { MetricInfo, RollupReader } from '@tickertape/query';
import { LRUCache } from 'lru-cache';
import { MetricScope } from '../token-scope.js';

const DAY_MS = 86_400_000;
const CATALOG_KEEP_MS = 30_000;

/** One Prometheus name: a tick metric's numeric field. */
export interface NameEntry {
  name: string;
  metric: string;
  field: string;
  /** Label name → the tag it comes from, for the metric's sampled tags. */
  tagOfLabel: Map<string, string>;
}

/** A series' field as PromQL sees it. */
export interface SelectedSeries {
  /** The series key (metric and tags) the reader reads. */
  series: string;
  field: string;
  labels: Record<string, string>;
}

export interface Range {
  fromMs: number;
  toMs: number;
}

/** Label → tag for a metric's tags; a label two tags sanitise to maps to neither (reported at read). */
function tagsByLabel(info: MetricInfo): Map<string, string> {
  const map = new Map<string, string>();
  for (const tag of info.tags) map.set(labelOfTag(tag), tag);
  return map;
}

/**
 * Prometheus names over the rollups: which names exist (from the reader's metric catalog) and
 * which series a selector means. Tag equalities go to the database as tag filters (so the seed's
 * `traffic_speed{route="r1"}` reads one route's series, not 16,000); every other matcher is
 * applied to the labels found, and the reader's series budget bounds what is found.
 */
export class PromCatalog {
  /** Concurrent asks for one day range share one read; a failed read is not kept. */
  private readonly kept: LRUCache<string, MetricInfo[], Range>;

  constructor(
    private readonly reader: RollupReader,
    private readonly maxSeries: number,
    private readonly now: () => number,
    /** The metrics this catalog knows; every name, selector and listing starts from them. */
    private readonly scope: MetricScope = MetricScope.ALL,
    kept?: LRUCache<string, MetricInfo[], Range>,
  ) {
    this.kept =
      kept ??
      new LRUCache({
        max: 64,
        ttl: CATALOG_KEEP_MS,
        perf: { now },
        fetchMethod: (_key, _stale, { context }) => reader.metrics(context),
      });
  }

  /**
   * The same catalog as a token's scope sees it: a metric outside does not exist for it, so a
   * selector (`{__name__=~".+"}` included) selects nothing of it and no listing names it. The
   * kept metric lists are shared: they are filtered, not read, per scope.
   */
  scoped(scope: MetricScope): PromCatalog {
    return scope === this.scope
      ? this
      : new PromCatalog(this.reader, this.maxSeries, this.now, scope, this.kept);
  }

  /**
   * The metrics of the whole UTC days the range touches, kept for 30 s: every panel of a
   * dashboard refresh asks, and metrics come and go far more slowly (a day's metric that has no
   * data in the range selects no series, which is harmless).
   */
  async metrics(range: Range): Promise<MetricInfo[]> {
    const days = { fromMs: floorTo(range.fromMs, DAY_MS), toMs: ceilTo(range.toMs, DAY_MS) };
    const all = (await this.kept.fetch(`${days.fromMs}-${days.toMs}`, { context: days })) ?? [];
    return this.scope.all ? all : all.filter((info) => this.scope.allows(info.metric));
  }

  /** Every name with data in the range, with what it is made of. */
  async names(range: Range): Promise<NameEntry[]> {
    const metrics = await this.metrics(range);
    return metrics.flatMap((info) =>
      info.fields.map((field) => ({
        name: metricName(info.metric, field),
        metric: info.metric,
        field,
        tagOfLabel: tagsByLabel(info),
      })),
    );
  }

  /**
   * The series (one per field) the matchers select in the range, at most the series budget; the
   * series reads stop at `signal` (the request's).
   */
  async select(
    matchers: readonly Matcher[],
    range: Range,
    signal?: AbortSignal,
  ): Promise<SelectedSeries[]> {
    const entries = await this.candidates(matchers, range);
    const reader = signal === undefined ? this.reader : this.reader.withSignal(signal);
    const selected: SelectedSeries[] = [];
    for (const entry of entries) {
      const tags: Record<string, string> = {};
      for (const m of matchers)
        if (m.op === '=' && m.label !== '__name__' && m.value !== '')
          tags[entry.tagOfLabel.get(m.label) ?? m.label] = m.value;
      const found = await reader.series({
        metric: entry.metric,
        tags,
        ...range,
        limit: this.maxSeries,
      });
      for (const info of found.series) {
        if (!info.fields.includes(entry.field)) continue;
        const { labels, collisions } = labelsOf(info.metric, entry.field, info.tags);
        if (collisions.length > 0)
          throw new PromQLError(
            PromQLErrorCode.AmbiguousName,
            `series ${info.series}: ${collisions.join('; ')}; rename a tag to read it through PromQL`,
          );
        if (matchesAll(matchers, labels))
          selected.push({ series: info.series, field: entry.field, labels });
      }
      if (found.truncated || selected.length > this.maxSeries)
        throw new PromQLError(
          PromQLErrorCode.TooLarge,
          `the selector matches more than ${this.maxSeries} series; the limit is ${this.maxSeries}: add label matchers`,
        );
    }
    return selected;
  }

  /** The names the selector's `__name__` matchers allow; two pairs with one name are refused. */
  private async candidates(matchers: readonly Matcher[], range: Range): Promise<NameEntry[]> {
    const byName = matchers.filter((m) => m.label === '__name__');
    const entries = (await this.names(range)).filter((entry) =>
      byName.every((m) => matchesValue(m, entry.name)),
    );
    // A field no sampled bucket holds is still found by its exact name.
    const exact = byName.find((m) => m.op === '=');
    if (exact && !entries.some((entry) => entry.name === exact.value)) {
      for (const info of await this.metrics(range)) {
        const prefix = `${metricName(info.metric, '')}`;
        if (exact.value.startsWith(prefix) && exact.value.length > prefix.length)
          entries.push({
            name: exact.value,
            metric: info.metric,
            field: exact.value.slice(prefix.length),
            tagOfLabel: tagsByLabel(info),
          });
      }
    }
    const seen = new Map<string, NameEntry>();
    for (const entry of entries) {
      const other = seen.get(entry.name);
      if (other)
        throw new PromQLError(
          PromQLErrorCode.AmbiguousName,
          `${entry.name} is both metric ${JSON.stringify(other.metric)} field ${JSON.stringify(other.field)} and metric ${JSON.stringify(entry.metric)} field ${JSON.stringify(entry.field)}: select them through the /api/v1 routes`,
        );
      seen.set(entry.name, entry);
    }
    return entries;
  }
}
