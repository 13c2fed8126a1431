import type { Aggregate } from './aggregate.js';
import type { BucketDelta } from './fold.js';
import { LEVEL_SPECS } from './levels.js';

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

/** Field path of the highest Kafka offset applied to a bucket from one partition. */
export function appliedPath(kafkaPartition: number): string {
  return `ap.${kafkaPartition}`;
}

function addAggregate(update: UpdateDocument, path: string, agg: Aggregate): void {
  update.$inc[`${path}.n`] = agg.n;
  update.$inc[`${path}.sum`] = agg.sum;
  update.$min[`${path}.min`] = agg.min;
  update.$max[`${path}.max`] = agg.max;
  update.$min[`${path}.first`] = agg.first;
  update.$max[`${path}.last`] = agg.last;
}

/**
 * The single update a delta becomes. Only commutative operators ($inc, $min, $max,
 * $setOnInsert), so the result does not depend on the order flushes land in, and it works on
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
    addAggregate(update, base, field.total);
    for (const [index, agg] of field.sub) {
      // Minute buckets keep the last value of each second (seed 000); coarser levels keep
      // full aggregates per sub-slot so they merge exactly.
      if (spec.subKey === 'v') update.$max[`${base}.v.${index}`] = agg.last;
      else addAggregate(update, `${base}.${spec.subKey}.${index}`, agg);
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
