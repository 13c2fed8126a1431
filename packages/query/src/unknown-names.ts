import { closest, distance } from 'fastest-levenshtein';
import { partitionOf } from '@tickertape/buckets';
import { isTickertapeError } from '@tickertape/errors';
import type { BucketScope, RollupStore, SeriesRow } from '@tickertape/store';
import { parseSeriesKey, seriesKey } from '@tickertape/tick';
import type { ReaderContext } from './limits.js';
import { QueryError, QueryErrorCode } from './query-error.js';

/** The names a read gave that the store does not hold, each with the closest it does. */
export interface UnknownNames {
  series: string[];
  fields: string[];
  /** A metric no series is kept of (a read naming series by metric and tags). */
  metrics: string[];
  /** Tags of such a read that no series of its metric carries: `key`, or `key=value`. */
  tags: string[];
  /** Per unknown name: the known names nearest to it (edit distance), nearest first. */
  suggestions: Record<string, string[]>;
}

/**
 * A read naming a series the store has never held, or a field its series has no data of in the
 * range: answered as "no data" it reads like an outage (issue 38), so it is refused by name.
 */
export class UnknownNameError extends QueryError {
  constructor(readonly unknown: UnknownNames) {
    super(QueryErrorCode.UnknownName, unknownMessage(unknown));
  }
}

export function isUnknownName(err: unknown): err is UnknownNameError {
  return isTickertapeError(err) && err.code === QueryErrorCode.UnknownName && 'unknown' in err;
}

function unknownMessage(unknown: UnknownNames): string {
  const said = (kind: string, name: string) => {
    const near = unknown.suggestions[name] ?? [];
    return `unknown ${kind} ${JSON.stringify(name)}${
      near.length === 0 ? '' : `; did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}?`
    }`;
  };
  return [
    ...unknown.metrics.map((name) => said('metric', name)),
    ...unknown.tags.map((name) => said(name.includes('=') ? 'tag value' : 'tag', name)),
    ...unknown.series.map((name) => said('series', name)),
    ...unknown.fields.map((name) => said('field', name)),
  ].join('; ');
}

/** Suggestions offered per name, and how far one may be: a typo, not any name of the metric. */
const MAX_SUGGESTIONS = 3;
const maxDistance = (name: string) => Math.max(2, Math.floor(name.length / 3));

/** Partitions of the coarsest level searched for a series: its whole default retention. */
const KNOWN_PARTITIONS = 12;
/** How far back the names suggested are looked for, beside the range itself. */
const SUGGEST_SPAN_MS = 31 * 24 * 3_600_000;
/** Series of a metric listed for suggestions. */
const SUGGEST_LIMIT = 1_000;

export function nearest(name: string, known: readonly string[]): string[] {
  const limit = maxDistance(name);
  const ranked = [...new Set(known)]
    .map((candidate) => ({ candidate, d: distance(name, candidate) }))
    .filter(({ candidate, d }) => d <= limit && candidate !== name)
    .sort((a, b) => a.d - b.d || (a.candidate < b.candidate ? -1 : 1))
    .map(({ candidate }) => candidate);
  return ranked.slice(0, MAX_SUGGESTIONS);
}

export interface NamedRead {
  /** The series that answered no data (the others are known, with the field). */
  empty: readonly string[];
  field: string;
  fromMs: number;
  toMs: number;
}

/**
 * Runs only after a read found no data for some series, so answers with data pay nothing. A
 * series is unknown when no bucket of it is kept at the coarsest level at all; a field when its
 * series has data in the range but none of that field. A known series quiet in the range is a
 * gap, as before: nothing is refused that a producer merely has not sent yet.
 */
export async function checkNames(
  store: RollupStore,
  ctx: ReaderContext,
  read: NamedRead,
): Promise<void> {
  if (read.empty.length === 0) return;
  const level = ctx.levels[ctx.levels.length - 1]!;
  const unknown = noUnknownNames();
  const spans = spansOf(ctx, read);
  for (const series of new Set(read.empty)) {
    const { metric, tags } = parseSeriesKey(series);
    if ((await store.newestBucket(level, series, KNOWN_PARTITIONS)) === undefined) {
      unknown.series.push(series);
      const siblings = await Promise.all(
        spans.map((span) => store.findSeries({ ...span, metric }, SUGGEST_LIMIT)),
      );
      const candidates =
        siblings.flat().length > 0
          ? siblings.flat().map((row) => row.series)
          : await otherMetrics(store, spans, metric, tags);
      unknown.suggestions[series] = nearest(series, candidates);
      continue;
    }
    const inRange = await store.findSeries(
      { level, fromMs: read.fromMs, toMs: read.toMs, metric, tags },
      SUGGEST_LIMIT,
    );
    const row: SeriesRow | undefined = inRange.find((found) => found.series === series);
    if (row === undefined || row.fields.includes(read.field)) continue;
    if (!unknown.fields.includes(read.field)) unknown.fields.push(read.field);
    unknown.suggestions[read.field] = nearest(read.field, [
      ...(unknown.suggestions[read.field] ?? []),
      ...row.fields,
    ]);
  }
  throwIfUnknown(unknown);
}

const noUnknownNames = (): UnknownNames => ({
  series: [],
  fields: [],
  metrics: [],
  tags: [],
  suggestions: {},
});

function throwIfUnknown(unknown: UnknownNames): void {
  const { series, fields, metrics, tags } = unknown;
  if (series.length + fields.length + metrics.length + tags.length > 0)
    throw new UnknownNameError(unknown);
}

/**
 * The range and the recent past, at the coarsest level, apart: one span from an old range to
 * now could list years of partitions of a fine level.
 */
function spansOf(ctx: ReaderContext, range: { fromMs: number; toMs: number }): BucketScope[] {
  const level = ctx.levels[ctx.levels.length - 1]!;
  const nowMs = ctx.now();
  return [
    { level, fromMs: range.fromMs, toMs: range.toMs },
    { level, fromMs: nowMs - SUGGEST_SPAN_MS, toMs: nowMs },
  ];
}

/** The coarsest level's last KNOWN_PARTITIONS partitions up to now: where a series is known. */
function keptSpan(ctx: ReaderContext): BucketScope {
  const level = ctx.levels[ctx.levels.length - 1]!;
  const toMs = ctx.now();
  let partition = partitionOf(level, toMs);
  for (let i = 1; i < KNOWN_PARTITIONS; i++) partition = partitionOf(level, partition.startMs - 1);
  return { level, fromMs: partition.startMs, toMs };
}

export interface SelectedRead {
  metric: string;
  tags: Readonly<Record<string, string>>;
  field: string;
  fromMs: number;
  toMs: number;
}

/**
 * A read naming series by metric and tags that matched none: the metric, a tag key or a tag
 * value no kept series carries is refused by name, with the nearest the metric has. A metric
 * and tags that do match kept series, quiet in the range, are a gap, as before.
 */
export async function checkSelection(
  store: RollupStore,
  ctx: ReaderContext,
  read: SelectedRead,
): Promise<void> {
  const spans = [...spansOf(ctx, read), keptSpan(ctx)];
  const unknown = noUnknownNames();
  const kept = (
    await Promise.all(
      spans.map((span) => store.findSeries({ ...span, metric: read.metric }, SUGGEST_LIMIT)),
    )
  ).flat();
  if (kept.length === 0) {
    const listed = await Promise.all(spans.map((span) => store.listMetrics(span, 1)));
    unknown.metrics.push(read.metric);
    unknown.suggestions[read.metric] = nearest(
      read.metric,
      listed.flat().map((row) => row.metric),
    );
    return throwIfUnknown(unknown);
  }
  for (const [key, value] of Object.entries(read.tags)) {
    // The sample may stop short of a metric's every series: a tag is unknown only when no kept
    // series carries it at all.
    const carried = await Promise.all(
      spans.map((span) =>
        store.findSeries({ ...span, metric: read.metric, tags: { [key]: value } }, 1),
      ),
    );
    if (carried.flat().length > 0) continue;
    const values = kept.flatMap((row) => (key in row.tags ? [row.tags[key]!] : []));
    if (values.length === 0) {
      unknown.tags.push(key);
      unknown.suggestions[key] = nearest(
        key,
        kept.flatMap((row) => Object.keys(row.tags)),
      );
    } else if (!values.includes(value)) {
      const name = `${key}=${value}`;
      unknown.tags.push(name);
      unknown.suggestions[name] = nearest(value, values).map((near) => `${key}=${near}`);
    }
  }
  throwIfUnknown(unknown);
}

/** A misspelt metric has no siblings: the series of the nearest metrics, with the same tags. */
async function otherMetrics(
  store: RollupStore,
  spans: readonly BucketScope[],
  metric: string,
  tags: Readonly<Record<string, string>>,
): Promise<string[]> {
  const listed = await Promise.all(spans.map((span) => store.listMetrics(span, 1)));
  const metrics = [...new Set(listed.flat().map((row) => row.metric))];
  const near = nearest(metric, metrics);
  if (near.length === 0 && metrics.length > 0) near.push(closest(metric, metrics));
  return near.map((name) => seriesKey(name, tags));
}
