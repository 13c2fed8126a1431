import type { FoldInput } from '@tickertape/buckets';
import { planSeries, type PlanOptions, type SegmentHead, type SeriesPlan } from './plan.js';
import type { Chain, SegmentStore } from './segment-store.js';

export interface SegmentApplyStats {
  points: number;
  /** Segments appended to, closed or created: one operation each. */
  operations: number;
  created: number;
  replayed: number;
  late: number;
  unchanged: number;
  /**
   * Chains opened for a series that already has one from another Kafka partition: a producer
   * put the series on a second partition (another partitioner, or a repartitioned topic).
   */
  split: SeriesSplit[];
}

/** A series that began arriving on `partition` while it had points from `others`. */
export interface SeriesSplit {
  series: string;
  partition: number;
  others: number[];
}

export interface SegmentWriterOptions extends Omit<PlanOptions, 'writeOnlyOnChange'> {
  /** Metrics whose points are written only when a value changed. */
  writeOnlyOnChange: ReadonlySet<string>;
}

function chainKey(series: string, partition: number): string {
  return `${partition}/${series}`;
}

/**
 * Applies flushes of ticks to the segment store. Keeps each chain's newest segment in memory: a
 * chain is fed by one Kafka partition, and one consumer owns a partition at a time, so the cache
 * is right until a rebalance — call `forget()` then. Every write is guarded (the append by the
 * applied offset, a new segment by its deterministic id), so a stale cache or a zombie writer
 * makes the flush fail with a retriable conflict rather than write twice.
 */
export class SegmentWriter {
  /** Newest segment per chain (`chainKey`); null: the chain has none yet. */
  private readonly heads = new Map<string, SegmentHead | null>();
  /** The flush in progress: flushes of different partitions run one at a time (see apply). */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: SegmentStore,
    private readonly options: SegmentWriterOptions,
  ) {}

  forget(): void {
    this.heads.clear();
  }

  /**
   * Flushes run one after another even when a worker flushes its partitions concurrently: a new
   * chain is judged a split by the other partitions' heads, and two first flushes of one series
   * side by side would each see none (the split would go uncounted).
   */
  apply(inputs: readonly FoldInput[]): Promise<SegmentApplyStats> {
    const next = this.running.then(
      () => this.applyNow(inputs),
      () => this.applyNow(inputs),
    );
    this.running = next.catch(() => undefined);
    return next;
  }

  private async applyNow(inputs: readonly FoldInput[]): Promise<SegmentApplyStats> {
    const byChain = new Map<string, FoldInput[]>();
    for (const input of inputs) {
      const key = chainKey(input.seriesKey, input.kafkaPartition);
      const list = byChain.get(key);
      if (list) list.push(input);
      else byChain.set(key, [input]);
    }
    const unknown = [...byChain]
      .filter(([key]) => !this.heads.has(key))
      .map(([, [first]]) => ({ series: first!.seriesKey, partition: first!.kafkaPartition }));
    const others = await this.loadHeads(unknown);
    const plans: SeriesPlan[] = [];
    const split: SeriesSplit[] = [];
    // Partitions per series in this flush, so a new chain finds its siblings without a scan of
    // every chain (a first flush can open thousands).
    const partitionsInFlush = new Map<string, number[]>();
    for (const [first] of byChain.values()) {
      const list = partitionsInFlush.get(first!.seriesKey);
      if (list) list.push(first!.kafkaPartition);
      else partitionsInFlush.set(first!.seriesKey, [first!.kafkaPartition]);
    }
    for (const [key, ticks] of byChain) {
      ticks.sort((a, b) => a.offset - b.offset);
      const head = this.heads.get(key) ?? undefined;
      const { seriesKey: series, kafkaPartition: partition, metric } = ticks[0]!;
      if (head === undefined) {
        // A new chain: a split if the series has another one stored, or in this flush (when
        // both are new there, only the higher partition counts, so one split counts once).
        const existing = new Set(others.get(series));
        for (const other of partitionsInFlush.get(series) ?? []) {
          if (other === partition) continue;
          if (this.heads.get(chainKey(series, other)) || other < partition) existing.add(other);
        }
        if (existing.size > 0)
          split.push({ series, partition, others: [...existing].sort((a, b) => a - b) });
      }
      plans.push(
        planSeries(head, ticks, {
          maxPoints: this.options.maxPoints,
          writeOnlyOnChange: this.options.writeOnlyOnChange.has(metric),
        }),
      );
    }
    try {
      const operations = await this.store.appendFlush(plans);
      for (const plan of plans) if (plan.head) this.heads.set(keyOf(plan), plan.head);
      const sum = (pick: (plan: SeriesPlan) => number) => plans.reduce((t, p) => t + pick(p), 0);
      return {
        points: sum(
          (p) => (p.append?.points.length ?? 0) + p.create.reduce((t, c) => t + c.doc.n, 0),
        ),
        operations,
        created: sum((p) => p.create.length),
        replayed: sum((p) => p.skipped.replayed),
        late: sum((p) => p.skipped.late),
        unchanged: sum((p) => p.skipped.unchanged),
        split,
      };
    } catch (err) {
      // Whatever was written stays (every write is idempotent under the guard); the heads are
      // read again before the retry so the plan starts from what the database holds.
      for (const plan of plans) this.heads.delete(keyOf(plan));
      throw err;
    }
  }

  /**
   * Reads the newest segment of each chain not cached; chains with none are remembered as such.
   * Returns, for each series one of whose chains has none, the partitions of its other chains.
   */
  private async loadHeads(chains: readonly Chain[]): Promise<Map<string, number[]>> {
    if (chains.length === 0) return new Map();
    const { heads, others } = await this.store.readHeads(chains);
    for (const { series, partition, head } of heads)
      this.heads.set(chainKey(series, partition), head);
    for (const { series, partition } of chains)
      if (!this.heads.has(chainKey(series, partition)))
        this.heads.set(chainKey(series, partition), null);
    return others;
  }
}

function keyOf(plan: SeriesPlan): string {
  return chainKey(plan.series, plan.partition);
}
