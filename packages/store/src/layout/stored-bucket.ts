import type { Aggregate, Mark, SecondCounts } from '@tickertape/buckets';

/**
 * A field as stored in a bucket: totals plus the level's sub-slot map (a minute bucket's sums per
 * second `sec`, or `v` marks in one written before the compact layout; minutes `m` and a compact
 * hour's sums `msum`; hours `h`).
 */
export type StoredField = Aggregate &
  Partial<Record<'sec' | 'v' | 'm' | 'h' | 'msum', Record<string, unknown>>>;

/**
 * The aggregate parts of a stored aggregate, and only those (a field's totals sit beside its
 * sub-maps): the optional parts (Σx², Σx·w and Σw, the sketch) where the bucket has them —
 * buckets written before them, and metrics the policy does not weight or sketch, lack them.
 * `spread` false leaves Σx² out: the field's Σx² does not cover all its ticks (`sqCoversAll`).
 */
export function aggregatePartsOf(stored: Aggregate, spread = true): Aggregate {
  const { n, sum, min, max, first, last, sq, xw, w, wn, q } = stored;
  const aggregate: Aggregate = { n, sum, min, max, first, last };
  if (spread && typeof sq === 'number') aggregate.sq = sq;
  if (typeof xw === 'number' && typeof w === 'number') {
    aggregate.xw = xw;
    aggregate.w = w;
    if (typeof wn === 'number') aggregate.wn = wn;
  }
  if (typeof q === 'object' && q !== null) aggregate.q = q;
  return aggregate;
}

/**
 * The parts of a bucket document the decoder looks at (a read may leave any of them out). The
 * writer's side of the same layout is the guarded update document; this is the one reader's
 * view of it, and nothing outside `layout/` and the store's implementations sees it.
 */
export interface StoredBucket {
  _id: string;
  series: string;
  start: Date;
  n: number;
  f?: Record<string, StoredField>;
  /** A compact bucket's ticks per sub-slot (a minute bucket's per second), by field set. */
  c?: SecondCounts;
}

export function isObservedMark(value: unknown): value is Mark {
  const t = (value as { t?: unknown } | null)?.t;
  return typeof t === 'number' && Number.isFinite(t);
}

/** Shell padding and missing parts have no observation: `n` absent or 0. */
export function isObservedAggregate(value: unknown): value is Aggregate {
  const n = (value as { n?: unknown } | null)?.n;
  return typeof n === 'number' && n > 0;
}
