import {
  LEGACY_SECOND_MARKS,
  LEVEL_SPECS,
  MINUTE_SUMS,
  SECOND_COUNTS,
  SECOND_SUMS,
  bucketId,
  fieldSetKeyOf,
  partitionOf,
  secondCountsOf,
  type Level,
  type SecondCounts,
} from '@tickertape/buckets';
import type { ShellSeries } from '../port/upkeep.js';

/**
 * Preallocated "shell" buckets (seed 000): every sub-slot present, counts 0, so later updates
 * change values in place instead of growing the document. Each shell value is the neutral
 * element of the operator that will update it — 0 for $inc, +∞ for $min, −∞ for $max, and
 * `{t: ±∞}` for first/last (embedded documents compare by `t` first) — so a worker's guarded
 * update on a shell yields the same data as on a missing bucket. Empty sub-slots stay
 * recognisable: `n: 0`, or a count of 0 for a second of a minute bucket (whose sum is 0 then).
 */
export const EMPTY_FIRST = Object.freeze({ t: Number.POSITIVE_INFINITY });
export const EMPTY_LAST = Object.freeze({ t: Number.NEGATIVE_INFINITY });

function emptyAggregate() {
  // `sq` is written with every tick (the others, `xw`, `w` and sketches, by policy only, grow
  // the document when written).
  return {
    n: 0,
    sum: 0,
    sq: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    first: { ...EMPTY_FIRST },
    last: { ...EMPTY_LAST },
  };
}

export interface ShellDocument {
  _id: string;
  collection: string;
  doc: Record<string, unknown>;
}

/**
 * The shell of one series' bucket of `level` starting at `start`; `compact` for an hour bucket
 * of a metric the level policy keeps compact (a minute bucket always is).
 */
export function shellDocument(
  level: Level,
  series: ShellSeries,
  start: number,
  compact = false,
): ShellDocument {
  const spec = LEVEL_SPECS[level];
  const sums = spec.subKey === SECOND_SUMS || (compact && spec.sumsKey !== undefined);
  const f: Record<string, unknown> = {};
  for (const name of series.fields) {
    const sub: Record<string, unknown> = {};
    for (let i = 0; i < spec.subSlots; i++) sub[String(i)] = sums ? 0 : emptyAggregate();
    // `sqn` (the ticks Σx² covers) sits on the field's totals only.
    f[name] = { ...emptyAggregate(), sqn: 0, [sums ? spec.sumsKey! : spec.subKey]: sub };
  }
  // The counts of the field set the series sent recently: its ticks will most likely carry it.
  const counts =
    sums && series.fields.length > 0
      ? { [SECOND_COUNTS]: { [fieldSetKeyOf(series.fields)]: zeros(spec.subSlots) } }
      : {};
  const id = bucketId(level, series.seriesKey, start);
  return {
    _id: id,
    collection: partitionOf(level, start).name,
    doc: {
      _id: id,
      series: series.seriesKey,
      metric: series.metric,
      tags: series.tags,
      level,
      start: new Date(start),
      n: 0,
      f,
      ...counts,
    },
  };
}

function zeros(count: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i), 0]));
}

function isEmptyMark(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    Math.abs((value as { t?: number }).t ?? 0) === Number.POSITIVE_INFINITY
  );
}

/**
 * A bucket as a reader should see it: the shell's untouched padding removed (fields and
 * sub-slots with no observation). A bucket that never was a shell is returned unchanged in
 * content, so "with shell" and "without shell" compare equal.
 */
export function withoutShellPadding(
  bucket: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const counts = bucket[SECOND_COUNTS] as SecondCounts | undefined;
  const f: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(
    (bucket.f ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (value.n === 0) continue;
    const field: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const entries = Object.entries(inner as Record<string, unknown>);
      if (key === SECOND_SUMS || key === MINUTE_SUMS) {
        // A sub-slot's sum may be 0 with data in it: its count says whether it has any.
        const seen = secondCountsOf(counts, name);
        field[key] = Object.fromEntries(entries.filter(([second]) => seen.has(Number(second))));
      } else if (key === LEGACY_SECOND_MARKS) {
        field[key] = Object.fromEntries(entries.filter(([, mark]) => !isEmptyMark(mark)));
      } else if (key === 'm' || key === 'h') {
        field[key] = Object.fromEntries(
          entries.filter(([, slot]) => (slot as { n: number }).n !== 0),
        );
      } else {
        field[key] = inner;
      }
    }
    f[name] = field;
  }
  const { f: _padded, [SECOND_COUNTS]: _zeros, ...rest } = bucket;
  const c: Record<string, Record<string, unknown>> = {};
  for (const [key, seconds] of Object.entries(counts ?? {})) {
    const kept = Object.entries(seconds).filter(([, count]) => count !== 0);
    if (kept.length > 0) c[key] = Object.fromEntries(kept);
  }
  return {
    ...rest,
    ...(Object.keys(f).length > 0 || bucket.f !== undefined ? { f } : {}),
    ...(Object.keys(c).length > 0 ? { [SECOND_COUNTS]: c } : {}),
  };
}
