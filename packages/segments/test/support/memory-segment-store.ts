import {
  SegmentBudgetError,
  SegmentConflictError,
  dayOf,
  parseSegmentCollection,
  partitionOfSegmentId,
  segmentCollection,
  segmentRetentionPlan,
  type Chain,
  type RawPointsLimits,
  type RawPointsQuery,
  type RawPointsResult,
  type SegmentDocument,
  type SegmentPoint,
  type SegmentRetentionPolicy,
  type SegmentRetentionRun,
  type SegmentStore,
  type SeriesPlan,
  type StoredHeads,
} from '../../src/index.js';

/**
 * The segment store in memory, for the writer's unit tests: the same documents and the same
 * guards as the MongoDB implementation (an append applies only where its chain's applied offset
 * is below `minOffset`, a new segment only if its id is free, phase one before phase two), so the
 * writer's planning, caching and conflict handling are tested without a server.
 */
export class MemorySegmentStore implements SegmentStore {
  /** Day → segment id → segment. */
  readonly days = new Map<string, Map<string, SegmentDocument>>();

  private day(day: string): Map<string, SegmentDocument> {
    let docs = this.days.get(day);
    if (!docs) this.days.set(day, (docs = new Map<string, SegmentDocument>()));
    return docs;
  }

  private find(collection: string, id: string): SegmentDocument | undefined {
    const day = parseSegmentCollection(collection);
    return day === undefined ? undefined : this.days.get(day)?.get(id);
  }

  /** A series' segments in chain order: partition, then day, then first offset. */
  segmentsOf(series: string): SegmentDocument[] {
    return [...this.days.values()]
      .flatMap((docs) => [...docs.values()])
      .filter((doc) => doc.series === series)
      .sort(
        (a, b) =>
          partitionOfSegmentId(a._id) - partitionOfSegmentId(b._id) ||
          (a._id < b._id ? -1 : a._id > b._id ? 1 : 0),
      );
  }

  readHeads(chains: readonly Chain[]): Promise<StoredHeads> {
    const result: StoredHeads = { heads: [], others: new Map() };
    for (const { series, partition } of chains) {
      const own = this.segmentsOf(series).filter((s) => partitionOfSegmentId(s._id) === partition);
      const newest = own
        .sort((a, b) => a.day.localeCompare(b.day) || (a._id < b._id ? -1 : 1))
        .at(-1);
      if (newest) {
        const { _id: id, day, n, end, last, ap } = structuredClone(newest);
        result.heads.push({ series, partition, head: { id, day, n, end, last, ap } });
        continue;
      }
      const asked = new Set(chains.filter((c) => c.series === series).map((c) => c.partition));
      const others = new Set(
        this.segmentsOf(series)
          .map((s) => partitionOfSegmentId(s._id))
          .filter((p) => !asked.has(p)),
      );
      if (others.size > 0)
        result.others.set(
          series,
          [...others].sort((a, b) => a - b),
        );
    }
    return Promise.resolve(result);
  }

  appendFlush(plans: readonly SeriesPlan[]): Promise<number> {
    let operations = 0;
    let unmatched = 0;
    for (const plan of plans) {
      const a = plan.append;
      if (a) {
        operations += 1;
        const doc = this.find(a.collection, a.id);
        const applied = doc?.ap[String(a.partition)];
        if (!doc || (applied !== undefined && applied >= a.minOffset)) unmatched += 1;
        else {
          const last = a.points.at(-1)!;
          doc.t.push(...a.points.map((p) => p.t));
          doc.v.push(...a.points.map((p) => ({ ...p.v })));
          doc.n += a.points.length;
          doc.end = last.t;
          doc.last = structuredClone(last);
          doc.ap[String(a.partition)] = a.maxOffset;
          if (a.nextStart !== undefined) doc.nextStart = a.nextStart;
        }
      }
      for (const c of plan.close) {
        operations += 1;
        const doc = this.find(c.collection, c.id);
        if (doc) doc.nextStart = c.nextStart;
        else unmatched += 1;
      }
    }
    if (unmatched > 0)
      return Promise.reject(
        new SegmentConflictError(`${unmatched} segment updates matched nothing`),
      );
    const created = plans
      .flatMap((plan) => plan.create)
      .sort((a, b) =>
        a.collection === b.collection
          ? a.doc._id < b.doc._id
            ? -1
            : 1
          : a.collection < b.collection
            ? -1
            : 1,
      );
    for (const { collection, doc } of created) {
      const docs = this.day(parseSegmentCollection(collection)!);
      if (docs.has(doc._id))
        return Promise.reject(
          new SegmentConflictError(`a new segment in ${collection} exists already`),
        );
      docs.set(doc._id, structuredClone(doc));
      operations += 1;
    }
    return Promise.resolve(operations);
  }

  /** The reference answer: every point of the series merged by time, then chain, then place. */
  readPoints(query: RawPointsQuery, limits: RawPointsLimits): Promise<RawPointsResult> {
    const { series, fromMs, toMs, field } = query;
    const segments = this.segmentsOf(series);
    const [first, last] = [dayOf(fromMs), dayOf(toMs - 1)];
    const planned = segments.filter(
      (s) => s.day >= first && s.day <= last && s.prevEnd < toMs && s.nextStart >= fromMs,
    ).length;
    if (planned + 2 > limits.maxDocuments)
      return Promise.reject(new SegmentBudgetError(`the range holds ${planned} segments`));
    const line = segments
      .flatMap((s) => s.t.map((t, i) => ({ t, v: s.v[i] ?? {}, p: partitionOfSegmentId(s._id) })))
      .filter((point) => field === undefined || point.v[field] !== undefined)
      .sort((a, b) => a.t - b.t || a.p - b.p)
      .map(({ t, v }): SegmentPoint => ({
        t,
        v: field === undefined ? v : { [field]: v[field]! },
      }));
    return Promise.resolve({
      series,
      fromMs,
      toMs,
      points: line.filter((p) => p.t >= fromMs && p.t < toMs),
      before: line.filter((p) => p.t < fromMs).at(-1) ?? null,
      after: line.find((p) => p.t >= toMs) ?? null,
      examined: segments.length,
    });
  }

  listDays(): Promise<string[]> {
    return Promise.resolve([...this.days.keys()].sort());
  }

  async *scanDay(day: string): AsyncIterable<SegmentDocument> {
    const docs = [...(this.days.get(day)?.values() ?? [])];
    for (const doc of docs.sort((a, b) => (a._id < b._id ? -1 : 1)))
      yield await Promise.resolve(doc);
  }

  ensureDay(day: string): Promise<void> {
    this.day(day);
    return Promise.resolve();
  }

  applyRetention(
    nowMs: number,
    policy: SegmentRetentionPolicy,
    dryRun: boolean,
  ): Promise<SegmentRetentionRun> {
    const wouldDrop = segmentRetentionPlan([...this.days.keys()], nowMs, policy)
      .filter((verdict) => verdict.drop)
      .map((verdict) => verdict.segmentDay);
    if (!dryRun) for (const { day } of wouldDrop) this.days.delete(day);
    const names = wouldDrop.map((d) => segmentCollection(d.day));
    return Promise.resolve({ wouldDrop: names, dropped: dryRun ? [] : names });
  }
}
