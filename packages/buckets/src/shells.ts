import { LEVEL_SPECS, type Level } from './levels.js';
import { partitionOf } from './partitions.js';
import { bucketId } from './slots.js';

/**
 * Preallocated "shell" buckets (seed 000): every sub-slot present, counts 0, so later updates
 * change values in place instead of growing the document. Each shell value is the neutral
 * element of the operator that will update it — 0 for $inc, +∞ for $min, −∞ for $max, and
 * `{t: ±∞}` for first/last (embedded documents compare by `t` first) — so a worker's guarded
 * update on a shell yields the same data as on a missing bucket. Empty sub-slots stay
 * recognisable: `n: 0`, or `t: -Infinity` for a minute bucket's per-second value.
 */
export const EMPTY_FIRST = Object.freeze({ t: Number.POSITIVE_INFINITY });
export const EMPTY_LAST = Object.freeze({ t: Number.NEGATIVE_INFINITY });

export interface ShellSeries {
  seriesKey: string;
  metric: string;
  tags: Readonly<Record<string, string>>;
  /** Numeric fields seen recently; a shell prepares exactly these. */
  fields: readonly string[];
}

function emptyAggregate() {
  return {
    n: 0,
    sum: 0,
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

/** The shell of one series' bucket of `level` starting at `start`. */
export function shellDocument(level: Level, series: ShellSeries, start: number): ShellDocument {
  const spec = LEVEL_SPECS[level];
  const f: Record<string, unknown> = {};
  for (const name of series.fields) {
    const sub: Record<string, unknown> = {};
    for (let i = 0; i < spec.subSlots; i++)
      sub[String(i)] = spec.subKey === 'v' ? { ...EMPTY_LAST } : emptyAggregate();
    f[name] = { ...emptyAggregate(), [spec.subKey]: sub };
  }
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
    },
  };
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
  const f: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(
    (bucket.f ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (value.n === 0) continue;
    const field: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'v' || key === 'm' || key === 'h') {
        field[key] = Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).filter(([, slot]) =>
            key === 'v' ? !isEmptyMark(slot) : (slot as { n: number }).n !== 0,
          ),
        );
      } else {
        field[key] = inner;
      }
    }
    f[name] = field;
  }
  const { f: _padded, ...rest } = bucket;
  return Object.keys(f).length > 0 || bucket.f !== undefined ? { ...rest, f } : { ...rest };
}
