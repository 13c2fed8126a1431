import {
  SegmentBudgetError,
  dayOf,
  partitionOfSegmentId,
  segmentCollection,
  segmentDayRange,
  type RawPointsLimits,
  type RawPointsQuery,
  type RawPointsResult,
  type SegmentDocument,
  type SegmentPoint,
} from '@tickertape/segments';
import type { Db, Document } from 'mongodb';
import { listSegmentDays } from './day-collections.js';
import { chainIdRange, seriesDayIdRange, seriesIdRange } from './ids.js';

type Segment = Pick<SegmentDocument, '_id' | 'start' | 'end' | 'prevEnd' | 'nextStart' | 't' | 'v'>;

/** A point with its chain (Kafka partition): what orders points of one time across chains. */
interface ChainPoint extends SegmentPoint {
  p: number;
}

type Side = 'before' | 'after';

function projection(field: string | undefined): Document {
  const base = { start: 1, end: 1, prevEnd: 1, nextStart: 1, t: 1 };
  return field === undefined ? { ...base, v: 1 } : { ...base, [`v.${field}`]: 1 };
}

function pointsOf(segment: Segment): ChainPoint[] {
  const p = partitionOfSegmentId(segment._id);
  return segment.t.map((t, i) => ({ t, v: segment.v[i] ?? {}, p }));
}

/**
 * Points are ordered by time, then chain, then place in the chain: of two candidates for a
 * neighbour, the one nearer the range in that order wins.
 */
function nearer(side: Side, best: ChainPoint | null, candidate: ChainPoint | null) {
  if (candidate === null) return best;
  if (best === null) return candidate;
  const later = candidate.t > best.t || (candidate.t === best.t && candidate.p > best.p);
  return (side === 'before') === later ? candidate : best;
}

function plain(point: ChainPoint | null): SegmentPoint | null {
  return point && { t: point.t, v: point.v };
}

/**
 * SegmentStore.readPoints: raw points of one series in [from, to) with their outer neighbours. One query per day
 * collection the range touches returns every segment that holds a point in the range *or the
 * point just outside it* — `prevEnd < to and nextStart ≥ from` (seed 004) — so the neighbours
 * come with the range. Only when a neighbour lies in a day outside the range (the series was
 * silent across midnight) is that one segment fetched, found by its time from `prevEnd`/`nextStart`.
 *
 * A series fed by two Kafka partitions has a chain of segments per partition (segment-shape.ts):
 * the query above returns each chain's part, the points are merged by time, and each neighbour is
 * the nearest of the chains' own — a chain with no segment in the range's days is found by
 * stepping outward day by day, which stops at the first day that cannot hold a nearer point.
 */
export async function readRawPoints(
  db: Db,
  query: RawPointsQuery,
  limits: RawPointsLimits,
): Promise<RawPointsResult> {
  const { series, fromMs, toMs, field } = query;
  const days = await listSegmentDays(db);
  const firstDay = dayOf(fromMs);
  const lastDay = dayOf(toMs - 1);
  const inRange = days.filter((day) => day >= firstDay && day <= lastDay);
  const filter = {
    _id: seriesIdRange(series),
    prevEnd: { $lt: toMs },
    nextStart: { $gte: fromMs },
  };
  const counts = await Promise.all(
    inRange.map((day) =>
      db.collection<SegmentDocument>(segmentCollection(day)).countDocuments(filter),
    ),
  );
  const planned = counts.reduce((a, b) => a + b, 0);
  if (planned + 2 > limits.maxDocuments)
    throw new SegmentBudgetError(
      `the range holds ${planned} segments of ${series}; the limit is ${limits.maxDocuments}: narrow the range`,
    );
  const segments: Segment[] = [];
  for (const [i, day] of inRange.entries()) {
    if (counts[i] === 0) continue;
    segments.push(
      ...(await db
        .collection<SegmentDocument>(segmentCollection(day))
        .find(filter, { projection: projection(field) })
        .sort({ _id: 1 })
        .toArray()),
    );
  }
  let examined = segments.length;
  // With a field asked for, a point without it is not a point of that field's line.
  const carries = (p: SegmentPoint) => field === undefined || p.v[field] !== undefined;
  // Ids order each chain's segments as written (day, then first offset).
  const chains = new Map<number, Segment[]>();
  for (const segment of segments.sort((a, b) => (a._id < b._id ? -1 : 1))) {
    const p = partitionOfSegmentId(segment._id);
    const chain = chains.get(p);
    if (chain) chain.push(segment);
    else chains.set(p, [segment]);
  }
  // Each chain's points carrying the field, in chain order; read once for the range and both ends.
  const chainPoints = new Map(
    [...chains].map(([p, chain]) => [p, chain.flatMap(pointsOf).filter(carries)]),
  );
  // A stable sort keeps each chain's order among points of one time.
  const all = [...chainPoints.values()].flat().sort((a, b) => a.t - b.t || a.p - b.p);

  /**
   * The nearest point carrying the field beyond one end of a chain's segment: its neighbour's in
   * the chain — the segment of that chain ending at its `prevEnd` (starting at its `nextStart`)
   * with the nearest id, as several segments can end at one millisecond — hop by hop, within
   * the budget.
   */
  const walk = async (segment: Segment, side: Side): Promise<ChainPoint | null> => {
    const p = partitionOfSegmentId(segment._id);
    let current = segment;
    while (examined < limits.maxDocuments) {
      const time = side === 'before' ? current.prevEnd : current.nextStart;
      if (!Number.isFinite(time)) return null;
      const day = dayOf(time);
      if (!days.includes(day)) return null; // dropped by retention
      const chain = chainIdRange(series, day, p);
      const filter =
        side === 'before'
          ? { _id: { $gte: chain.$gte, $lt: current._id < chain.$lt ? current._id : chain.$lt } }
          : {
              _id: {
                ...(current._id >= chain.$gte ? { $gt: current._id } : { $gte: chain.$gte }),
                $lt: chain.$lt,
              },
            };
      const next: Segment | null = await db
        .collection<SegmentDocument>(segmentCollection(day))
        .find(
          { ...filter, ...(side === 'before' ? { end: time } : { start: time }) },
          { projection: projection(field) },
        )
        .sort({ _id: side === 'before' ? -1 : 1 })
        .limit(1)
        .next();
      if (!next) return null;
      examined += 1;
      const points = pointsOf(next).filter(carries);
      const point = side === 'before' ? points.at(-1) : points[0];
      if (point) return point;
      current = next;
    }
    return null;
  };

  /**
   * Each chain's nearest point on `side` among its segments read; for a chain with none there,
   * a walk beyond its edge — skipped when what lies beyond (at or past the edge's prevEnd /
   * nextStart) cannot beat the best point found so far.
   */
  const nearestOfChains = async (side: Side): Promise<ChainPoint | null> => {
    let best: ChainPoint | null = null;
    const lacking: Segment[] = [];
    for (const [p, chain] of chains) {
      const own = chainPoints.get(p)!;
      const point =
        side === 'before' ? own.filter((x) => x.t < fromMs).at(-1) : own.find((x) => x.t >= toMs);
      if (point) best = nearer(side, best, point);
      else lacking.push(side === 'before' ? chain[0]! : chain.at(-1)!);
    }
    for (const edge of lacking) {
      const bound = side === 'before' ? edge.prevEnd : edge.nextStart;
      const reach = { t: bound, v: {}, p: partitionOfSegmentId(edge._id) };
      if (best && nearer(side, best, reach) === best) continue;
      best = nearer(side, best, await walk(edge, side));
    }
    return best;
  };

  /**
   * Chains with no segment in the range's days: day by day outward, the newest (oldest) segment
   * of each chain not met yet, hopping from chain to chain by id; stops at a day that lies wholly
   * beyond the best point found. For a series with one chain this reads what the range's own
   * walk did not: the newest segment of the nearest earlier day, when the range's days had none.
   */
  const outward = async (side: Side, found: ChainPoint | null): Promise<ChainPoint | null> => {
    let best = found;
    const known = new Set(chains.keys());
    const candidates =
      side === 'before'
        ? days.filter((d) => d < firstDay).reverse()
        : days.filter((d) => d > lastDay);
    for (const day of candidates) {
      const span = segmentDayRange(day);
      if (best && span && (side === 'before' ? best.t >= span.endMs : best.t < span.startMs)) break;
      const whole = seriesDayIdRange(series, day);
      let bound = side === 'before' ? whole.$lt : whole.$gte;
      const collection = db.collection<SegmentDocument>(segmentCollection(day));
      while (examined < limits.maxDocuments) {
        // Which chain has the next id: an index probe (ids only), not a document read. A chain
        // already met is skipped without reading its segment.
        const probe = await collection
          .find(
            {
              _id:
                side === 'before'
                  ? { $gte: whole.$gte, $lt: bound }
                  : { $gte: bound, $lt: whole.$lt },
            },
            { projection: { _id: 1 } },
          )
          .sort({ _id: side === 'before' ? -1 : 1 })
          .limit(1)
          .next();
        if (!probe) break;
        const p = partitionOfSegmentId(probe._id);
        const chain = chainIdRange(series, day, p);
        bound = side === 'before' ? chain.$gte : chain.$lt;
        if (known.has(p)) continue;
        known.add(p);
        const segment: Segment | null = await collection.findOne(
          { _id: probe._id },
          { projection: projection(field) },
        );
        if (!segment) continue; // dropped between the two reads
        examined += 1;
        const own = pointsOf(segment).filter(carries);
        const point = (side === 'before' ? own.at(-1) : own[0]) ?? (await walk(segment, side));
        best = nearer(side, best, point);
      }
    }
    return best;
  };

  const before = await outward('before', await nearestOfChains('before'));
  const after = await outward('after', await nearestOfChains('after'));
  return {
    series,
    fromMs,
    toMs,
    points: all.filter((p) => p.t >= fromMs && p.t < toMs).map((p) => plain(p)!),
    before: plain(before),
    after: plain(after),
    examined,
  };
}
