import { floorTo, type FoldInput } from '@tickertape/buckets';
import {
  dayOf,
  segmentCollection,
  segmentId,
  type SegmentDocument,
  type SegmentPoint,
} from './segment-shape.js';

const DAY_MS = 86_400_000;

/** What the planner needs to know of a series' newest segment. */
export interface SegmentHead {
  id: string;
  day: string;
  n: number;
  end: number;
  last: SegmentPoint;
  ap: Record<string, number>;
}

export interface PlanOptions {
  /** Points per segment at most. */
  maxPoints: number;
  /** Skip a point whose fields all equal the newest stored point's (seed 004's counters). */
  writeOnlyOnChange: boolean;
}

export interface Append {
  id: string;
  collection: string;
  partition: number;
  /** The guard: applied only if the segment has seen no offset at or above this. */
  minOffset: number;
  maxOffset: number;
  points: SegmentPoint[];
  /** Set when this flush also fills the segment and opens the next: closed in the same update. */
  nextStart?: number;
}

export interface SeriesPlan {
  series: string;
  /** The Kafka partition the ticks came from: the chain planned. */
  partition: number;
  /** Points added to the existing newest segment. */
  append?: Append;
  /** Segments that stop being the newest: their `nextStart` is set. */
  close: { id: string; collection: string; nextStart: number }[];
  /** New segments, in order; each is inserted whole. */
  create: { collection: string; doc: SegmentDocument }[];
  /** The newest segment after the plan is applied. */
  head: SegmentHead | undefined;
  skipped: { replayed: number; late: number; unchanged: number };
}

function sameValues(
  a: Readonly<Record<string, number>>,
  b: Readonly<Record<string, number>>,
): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}

/**
 * Where one chain's ticks of a flush go — one series from one Kafka partition — decided from the
 * chain's newest segment alone: a pure function of (head, ticks in offset order), so a replay
 * after a crash makes the same segments with the same ids. Ticks at or below the head's applied
 * offset were written before and are skipped; a tick older than the chain's newest stored point
 * is *late*: inserting it would break the segments' time order, so it is left to the rollups
 * (which take late ticks) and counted. Another partition's ticks of the series are another
 * chain's business: what is late is decided per partition, so it does not depend on how the
 * partitions' deliveries interleave.
 */
export function planSeries(
  head: SegmentHead | undefined,
  ticks: readonly FoldInput[],
  options: PlanOptions,
): SeriesPlan {
  const first = ticks[0];
  const plan: SeriesPlan = {
    series: first?.seriesKey ?? '',
    partition: first?.kafkaPartition ?? 0,
    close: [],
    create: [],
    head,
    skipped: { replayed: 0, late: 0, unchanged: 0 },
  };
  // A private copy, updated in place tick by tick (the caller's head stays as it was).
  let current = head && { ...head, ap: { ...head.ap } };
  // The segment being filled in this flush: the old head (append) or one created here.
  let open:
    { kind: 'append'; append: Append } | { kind: 'create'; doc: SegmentDocument } | undefined;
  for (const tick of ticks) {
    const applied = current?.ap[String(tick.kafkaPartition)];
    if (applied !== undefined && tick.offset <= applied) {
      plan.skipped.replayed += 1;
      continue;
    }
    if (current && tick.ts < current.end) {
      plan.skipped.late += 1;
      continue;
    }
    const point: SegmentPoint = { t: tick.ts, v: { ...tick.fields } };
    if (options.writeOnlyOnChange && current && sameValues(current.last.v, point.v)) {
      plan.skipped.unchanged += 1;
      continue;
    }
    const p = String(tick.kafkaPartition);
    // `end` lies in the segment's day: comparing day starts needs no date formatting per tick.
    if (
      current &&
      current.n < options.maxPoints &&
      floorTo(tick.ts, DAY_MS) === floorTo(current.end, DAY_MS)
    ) {
      if (open === undefined) {
        open = {
          kind: 'append',
          append: {
            id: current.id,
            collection: segmentCollection(current.day),
            partition: tick.kafkaPartition,
            minOffset: tick.offset,
            maxOffset: tick.offset,
            points: [],
          },
        };
        plan.append = open.append;
      }
      if (open.kind === 'append') {
        open.append.points.push(point);
        open.append.maxOffset = tick.offset;
      } else {
        const doc = open.doc;
        doc.t.push(point.t);
        doc.v.push(point.v);
        doc.n += 1;
        doc.end = point.t;
        doc.last = point;
        doc.ap[p] = tick.offset;
      }
      current.n += 1;
      current.end = point.t;
      current.last = point;
      current.ap[p] = tick.offset;
      continue;
    }
    // A new segment: the first of the series, the head is full, or a new UTC day began.
    const day = dayOf(tick.ts);
    const id = segmentId(tick.seriesKey, day, tick.kafkaPartition, tick.offset);
    if (current) {
      // One operation per segment: a segment written in this flush is closed in that same write.
      const closing = plan.create.at(-1);
      if (closing && closing.doc._id === current.id) closing.doc.nextStart = point.t;
      else if (plan.append?.id === current.id) plan.append.nextStart = point.t;
      else
        plan.close.push({
          id: current.id,
          collection: segmentCollection(current.day),
          nextStart: point.t,
        });
    }
    const doc: SegmentDocument = {
      _id: id,
      series: tick.seriesKey,
      metric: tick.metric,
      tags: { ...tick.tags },
      day,
      start: point.t,
      end: point.t,
      prevEnd: current?.end ?? Number.NEGATIVE_INFINITY,
      nextStart: Number.POSITIVE_INFINITY,
      n: 1,
      t: [point.t],
      v: [point.v],
      last: point,
      ap: { ...(current?.ap ?? {}), [p]: tick.offset },
      p: tick.kafkaPartition,
    };
    plan.create.push({ collection: segmentCollection(day), doc });
    open = { kind: 'create', doc };
    current = { id, day, n: 1, end: point.t, last: point, ap: { ...doc.ap } };
  }
  plan.head = current;
  return plan;
}
