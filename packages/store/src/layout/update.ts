import { LEVEL_SPECS, SECOND_COUNTS, type BucketDelta, type Totals } from '@tickertape/buckets';

export type UpdateDocument = {
  $inc: Record<string, number>;
  $min: Record<string, unknown>;
  $max: Record<string, unknown>;
  $setOnInsert: Record<string, unknown>;
};

export interface GuardedUpdate {
  filter: Record<string, unknown>;
  update: UpdateDocument;
}

/** Sub-slot indexes as path parts, made once rather than per entry of every update. */
const INDEX: readonly string[] = Array.from({ length: 60 }, (_, i) => String(i));

/** Field path of the highest Kafka offset applied to a bucket from one partition. */
export function appliedPath(kafkaPartition: number): string {
  return `ap.${kafkaPartition}`;
}

function addTotals(update: UpdateDocument, path: string, totals: Totals): void {
  const inc = update.$inc;
  inc[`${path}.n`] = totals.n;
  inc[`${path}.sum`] = totals.sum;
  inc[`${path}.sq`] = totals.sq;
  if (totals.weighed > 0) {
    inc[`${path}.xw`] = totals.xw;
    inc[`${path}.w`] = totals.w;
    inc[`${path}.wn`] = totals.weighed;
  }
  const bins = totals.bins;
  if (bins !== undefined) {
    // Bin counts add like `n`: a sketch is a count per bin (docs/data-layout.md).
    const prefix = `${path}.q.`;
    for (const [key, count] of bins) inc[prefix + key] = count;
  }
  update.$min[`${path}.min`] = totals.min;
  update.$max[`${path}.max`] = totals.max;
  update.$min[`${path}.first`] = totals.first;
  update.$max[`${path}.last`] = totals.last;
}

/**
 * The single update a delta becomes. Only commutative operators ($inc, $min, $max,
 * $setOnInsert) — Σx², Σx·w, Σw and the sketches' bin counts are sums too, so the result does not depend on the order flushes land in, and it works on
 * a missing document (upsert), a shell, or a bucket with data alike.
 *
 * The filter is the exactly-once guard: it matches only while the bucket has applied nothing at
 * or beyond this delta's first offset from this partition. A replayed delta misses, the upsert
 * then collides with the existing `_id`, and the writer gets E11000 for that operation alone
 * (see docs/exactly-once.md).
 */
export function guardedUpdate(delta: BucketDelta): GuardedUpdate {
  const spec = LEVEL_SPECS[delta.level];
  const update: UpdateDocument = { $inc: { n: delta.ticks }, $min: {}, $max: {}, $setOnInsert: {} };
  for (const [name, field] of delta.fields) {
    const base = `f.${name}`;
    addTotals(update, base, field.total);
    // What Σx² covers, once per field: a bucket begun before Σx² existed shows as sqn < n.
    update.$inc[`${base}.sqn`] = field.total.n;
    const sums = field.subSums;
    if (sums !== undefined) {
      // Compact form: one plain sum per sub-slot, added like `n` and `sum` (docs/data-layout.md).
      const prefix = `${base}.${spec.sumsKey!}.`;
      for (let second = 0; second < sums.length; second++) {
        const sum = sums[second]!;
        if (!Number.isNaN(sum)) update.$inc[prefix + INDEX[second]!] = sum;
      }
    }
    const sub = field.sub;
    for (let index = 0; index < sub.length; index++) {
      const totals = sub[index];
      if (totals !== undefined)
        addTotals(update, `${base}.${spec.subKey}.${INDEX[index]!}`, totals);
    }
  }
  for (const [key, counts] of delta.subCounts) {
    const prefix = `${SECOND_COUNTS}.${key}.`;
    for (let second = 0; second < counts.length; second++) {
      const count = counts[second]!;
      if (count > 0) update.$inc[prefix + INDEX[second]!] = count;
    }
  }
  for (const [name, marks] of delta.strings) {
    update.$min[`s.${name}.first`] = marks.first;
    update.$max[`s.${name}.last`] = marks.last;
  }
  update.$max[appliedPath(delta.kafkaPartition)] = delta.maxOffset;
  update.$setOnInsert = {
    series: delta.seriesKey,
    metric: delta.metric,
    tags: delta.tags,
    level: delta.level,
    start: new Date(delta.slotStart),
  };
  return {
    filter: {
      _id: delta.id,
      [appliedPath(delta.kafkaPartition)]: { $not: { $gte: delta.minOffset } },
    },
    update,
  };
}
