import type { Level } from '@tickertape/buckets';

/**
 * A tick as the checker sees it: decoded from the topic, with the Kafka position that orders it.
 * The checker folds these itself; it shares no fold code with the workers.
 */
export interface TruthTick {
  series: string;
  metric: string;
  tags: Readonly<Record<string, string>>;
  ts: number;
  fields: Readonly<Record<string, number>>;
  strings: Readonly<Record<string, string>>;
  partition: number;
  offset: number;
}

/** Where a stored thing disagrees with the topic. */
export type DifferenceKind = 'missing' | 'extra' | 'wrong';

/** The stores the checker compares: each rollup level, the segment store and the DLQ. */
export type CheckedStore = Level | 'segments' | 'dead-letters';

export interface Difference {
  store: CheckedStore;
  kind: DifferenceKind;
  /** Bucket `_id`, `<series>@<ISO time>` for a raw point, `<topic>/<partition>/<offset>` for a record. */
  id: string;
  /** The field that differs, for `wrong` (e.g. `f.speed.sum`). */
  path?: string;
  expected?: unknown;
  actual?: unknown;
}

/** Records are identified across the topic and the DLQ by where they were published. */
export function recordId(topic: string, partition: number, offset: number): string {
  return `${topic}/${partition}/${offset}`;
}
