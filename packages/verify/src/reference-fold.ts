import {
  addToBins,
  bucketId,
  fieldSetKeyOf,
  KEEP_EVERYTHING,
  LEVEL_SPECS,
  SECOND_COUNTS,
  SECOND_SUMS,
  type Level,
  type SketchBins,
} from '@tickertape/buckets';
import type { TruthTick } from './truth.js';

/** One observation of a field: event time, offset (the tie-break) and value. */
interface Observation {
  t: number;
  o: number;
  v: number;
}

/** MongoDB's order of two values: numbers by value, strings by their UTF-8 bytes (binary). */
function compareValues(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/**
 * First and last are by event time, then offset, then value: the order in which MongoDB's
 * `$min`/`$max` compare the stored `{t, o, v}` marks, field by field. Within one partition
 * `(t, o)` is unique. A series on two partitions (producers with different partitioners) can
 * tie on both — offsets of two partitions say nothing about which came first — and the value
 * then decides, so the result is one fixed function of the records, whatever order the
 * partitions' flushes land in (docs/producing.md).
 */
export function chronological<V extends number | string>(
  a: { t: number; o: number; v: V },
  b: { t: number; o: number; v: V },
): number {
  return a.t - b.t || a.o - b.o || compareValues(a.v, b.v);
}

/** An observation of a weighted field: its weight, when its tick carried the weight field. */
interface WeighedObservation extends Observation {
  w?: number;
}

/**
 * The totals of a set of observations, computed the plain way: sort (chronological), take the
 * ends, sum. Deliberately unlike the workers' incremental fold. Σx² always; Σx·w, Σw and the count
 * of ticks they cover when the field is weighted and some observation carried its weight; the sketch when `sketch`.
 */
function totals(
  observations: WeighedObservation[],
  weighted: boolean,
  /** The α of the metric's sketch, when this aggregate keeps one. */
  sketch: number | undefined,
): Record<string, unknown> {
  const sorted = [...observations].sort(chronological);
  const values = sorted.map((x) => x.v);
  const result: Record<string, unknown> = {
    n: sorted.length,
    sum: values.reduce((a, b) => a + b, 0),
    min: values.reduce((a, b) => (b < a ? b : a)),
    max: values.reduce((a, b) => (b > a ? b : a)),
    first: sorted[0],
    last: sorted[sorted.length - 1],
    sq: values.reduce((a, b) => a + b * b, 0),
  };
  const weighed = sorted.filter((x) => x.w !== undefined);
  if (weighted && weighed.length > 0) {
    result.xw = weighed.reduce((a, x) => a + x.v * x.w!, 0);
    result.w = weighed.reduce((a, x) => a + x.w!, 0);
    result.wn = weighed.length;
  }
  if (sketch !== undefined) {
    const q: SketchBins = {};
    for (const v of values) addToBins(q, v, 1, sketch);
    result.q = q;
  }
  return result;
}

/** What the reference fold asks of the level policy (`LevelPolicy` is one). */
export interface ReferencePolicy {
  compacts(level: Level, metric: string): boolean;
  sketches(metric: string): boolean;
  sketchAlpha(metric: string): number;
  weightOf(metric: string, field: string): string | undefined;
  /**
   * Whether the level leaves out a tick of `metric` at `tsMs` (skipped by the operator, or in an
   * automatic span); absent: the level keeps every tick.
   */
  skipsAt?(level: Level, metric: string, tsMs: number): boolean;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | number): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = String(key(item));
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * The bucket document one level should hold for these ticks (all of one series and slot).
 * `compact`: sums and counts per sub-slot — always so at the minute level, at the hour level when
 * the level policy keeps the metric compact.
 */
function expectedBucket(
  level: Level,
  start: number,
  ticks: TruthTick[],
  compact: boolean,
  policy: ReferencePolicy,
): Record<string, unknown> {
  const spec = LEVEL_SPECS[level];
  const head = ticks[0]!;
  const names = new Set(ticks.flatMap((tick) => Object.keys(tick.fields)));
  const secondOf = (t: number) => Math.floor((t - start) / spec.subSlotMs);
  // One sketch per minute: a minute bucket's totals, an hour's or a day's full sub-slots.
  const sketched = policy.sketches(head.metric);
  const sketchTotals = sketched && spec.subKey === SECOND_SUMS;
  const sketchSubs = sketched && !compact;
  const alpha = policy.sketchAlpha(head.metric);
  const f: Record<string, unknown> = {};
  for (const name of names) {
    const by = policy.weightOf(head.metric, name);
    const observations = ticks
      .filter((tick) => Object.hasOwn(tick.fields, name))
      .map((tick): WeighedObservation => {
        const w = by === undefined ? undefined : tick.fields[by];
        const x = { t: tick.ts, o: tick.offset, v: tick.fields[name]! };
        return w === undefined ? x : { ...x, w };
      });
    const sub: Record<string, unknown> = {};
    for (const [index, group] of groupBy(observations, (x) => secondOf(x.t))) {
      // Compact buckets keep the sum of each sub-slot; the others full totals.
      sub[index] = compact
        ? totals(group, false, undefined).sum
        : plain(totals(group, by !== undefined, sketchSubs ? alpha : undefined));
    }
    f[name] = {
      ...plain(totals(observations, by !== undefined, sketchTotals ? alpha : undefined)),
      // Σx² covers every tick folded here (on the field's totals only).
      sqn: observations.length,
      [compact ? spec.sumsKey! : spec.subKey]: sub,
    };
  }
  // Compact buckets count the ticks of each sub-slot once per set of numeric fields they carried.
  const c: Record<string, Record<string, number>> = {};
  if (compact) {
    for (const tick of ticks) {
      const names = Object.keys(tick.fields);
      if (names.length === 0) continue;
      const seconds = (c[fieldSetKeyOf(names)] ??= {});
      const second = String(secondOf(tick.ts));
      seconds[second] = (seconds[second] ?? 0) + 1;
    }
  }
  const strings = new Set(ticks.flatMap((tick) => Object.keys(tick.strings)));
  const s: Record<string, unknown> = {};
  for (const name of strings) {
    const marks = ticks
      .filter((tick) => Object.hasOwn(tick.strings, name))
      .map((tick) => ({ t: tick.ts, o: tick.offset, v: tick.strings[name]! }))
      .sort(chronological);
    s[name] = { first: marks[0], last: marks[marks.length - 1] };
  }
  const ap: Record<string, number> = {};
  for (const tick of ticks) ap[tick.partition] = Math.max(ap[tick.partition] ?? -1, tick.offset);
  return bucketDocument(head, level, start, { n: ticks.length, f, s, ap, c });
}

/** Marks as stored: `{ t, o, v }` (an observation's weight is not part of it). */
function plain(aggregate: Record<string, unknown>): Record<string, unknown> {
  const mark = (x: unknown) => {
    const { t, o, v } = x as Observation;
    return { t, o, v };
  };
  return { ...aggregate, first: mark(aggregate.first), last: mark(aggregate.last) };
}

/**
 * The stored shape of a bucket the checker expects: the series' identity, then its data; `s`
 * only when the bucket has string fields, `c` only in a compact bucket with numeric fields, as
 * the workers write them.
 */
export function bucketDocument(
  head: { series?: unknown; metric?: unknown; tags?: unknown },
  level: Level,
  start: number,
  data: {
    n: number;
    f?: Record<string, unknown>;
    s: Record<string, unknown>;
    ap: unknown;
    c?: Record<string, unknown>;
  },
): Record<string, unknown> {
  return {
    series: head.series,
    metric: head.metric,
    tags: head.tags,
    level,
    start: new Date(start),
    n: data.n,
    ...(data.f === undefined ? {} : { f: data.f }),
    ...(Object.keys(data.s).length > 0 ? { s: data.s } : {}),
    ...(data.c !== undefined && Object.keys(data.c).length > 0 ? { [SECOND_COUNTS]: data.c } : {}),
    ap: data.ap,
  };
}

/**
 * Every bucket of `level` the ticks make, by `_id`. A record appears once in `ticks` (the caller
 * reads each offset once), so each tick counts once by construction. `policy` says which ticks the
 * level leaves out (a skipped metric; an automatically skipped one over its spans, per tick as
 * the writers judge it), which metrics it keeps compact (asked only of a level whose compact form is the policy's choice), which
 * keep sketches and which fields are weighted (docs/data-layout.md).
 */
export function expectedBuckets(
  level: Level,
  ticks: readonly TruthTick[],
  policy: ReferencePolicy = KEEP_EVERYTHING,
): Map<string, Record<string, unknown>> {
  const { slotMs, subKey, sumsKey } = LEVEL_SPECS[level];
  const buckets = new Map<string, Record<string, unknown>>();
  const kept =
    policy.skipsAt === undefined
      ? ticks
      : ticks.filter((tick) => !policy.skipsAt!(level, tick.metric, tick.ts));
  for (const [key, group] of groupBy(
    kept,
    (tick) => `${Math.floor(tick.ts / slotMs) * slotMs}\u0000${tick.series}`,
  )) {
    const start = Number(key.slice(0, key.indexOf('\u0000')));
    // Always compact when the sums map is the sub-slot map (minute buckets), never without one.
    const compact =
      sumsKey === subKey || (sumsKey !== undefined && policy.compacts(level, group[0]!.metric));
    buckets.set(
      bucketId(level, group[0]!.series, start),
      expectedBucket(level, start, group, compact, policy),
    );
  }
  return buckets;
}
