import type { FoldInput } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import { SeriesKeyCache, type TickCodec } from '@tickertape/tick';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { sendDeadLetters } from './dead-letter.js';
import { decodeChunk } from './decode-chunk.js';
import {
  dueAfter,
  flushCause,
  heldSince,
  overMemory,
  PartitionHold,
  room,
  type FlushCause,
  type HeldTicks,
  type HoldLimits,
} from './held-ticks.js';
import type { WorkerMetrics } from './metrics.js';

/** What one flush did, as far as the loop's own metrics go; a sink records the rest itself. */
export interface FlushStats {
  /** Database operations sent. */
  operations: number;
}

/**
 * Where the loop writes a flush: a level's rollup writer or the segment writer. `apply` must be
 * safe to repeat from the flush's first offset (the loop commits only after it returned), and
 * throw when anything of the flush may be missing.
 */
export interface FlushSink {
  apply(inputs: readonly FoldInput[]): Promise<FlushStats>;
  /** Drops state that is valid only while this process owns its partitions: called on every (re)join. */
  forget?(): void;
}

export interface RollupConsumerOptions {
  topic: string;
  dlqTopic: string;
  /** Whether this worker writes the DLQ (only one rollup level does; see env). */
  ownsDeadLetters: boolean;
  /** Most records one flush holds: a partition holding this many is written before its budget. */
  flushMaxTicks: number;
  /**
   * How long a consumed record may wait before it is written (FRESHNESS_BUDGET_MS). 0 writes each
   * fetched batch before the next fetch; more holds a partition's records across fetches, so
   * one update per bucket absorbs every tick the bucket got in that time.
   */
  budgetMs: number;
  /** Estimated heap all held records may take; over it the largest holds are written early. */
  maxHeldBytes: number;
  /** Partitions flushed at the same time (each one's flushes stay in order). */
  partitionsConcurrently: number;
  maxLatenessMs: number;
  maxFutureMs: number;
  /** Fault injection: called after the n-th flush is written, before its commit. */
  afterWrite?: (flushesWritten: number) => void;
}

export interface RollupConsumerDeps {
  consumer: Consumer;
  producer: Producer;
  codec: TickCodec;
  sink: FlushSink;
  metrics: WorkerMetrics;
  logger: Logger;
  clock: () => number;
}

/** One assigned partition: what it holds, its flushes in order, and what a failure left. */
interface PartitionState {
  readonly partition: number;
  hold: PartitionHold;
  /** The partition's flushes run one after another on this chain: commits stay in offset order. */
  chain: Promise<void>;
  /** Bumped when the held records are dropped: work begun before belongs to no one. */
  epoch: number;
  highWatermark: string;
  /** How long the partition's last write and commit took: its holds are written that much early. */
  lastWriteMs: number;
  /** A budget flush that failed: rethrown by the partition's next batch, so KafkaJS retries it. */
  failure?: Error;
}

/**
 * The worker's loop, for every mode. A partition's fetched records are decoded (bad ones
 * dead-lettered) and held; its held records are written — one guarded write by the sink, then
 * the commit of the last held offset — when the oldest has waited FRESHNESS_BUDGET_MS, when the
 * partition holds FLUSH_MAX_TICKS records, or when all holds together pass their memory bound.
 * A budget of 0 writes each fetched batch before the next fetch. Budgets run from consumption,
 * less the time the records took to reach the worker (up to a second: heldSince), and are checked
 * on every batch and by a timer, so a partition that goes quiet is still written in time.
 *
 * Offsets are committed only after the write, so what is held is never committed: a crash,
 * SIGKILL or rebalance drops it and the partition's next owner consumes it again from the last
 * commit (the guard makes that exact). On SIGTERM, `drain` writes and commits every hold before
 * the consumer leaves the group; on a rebalance the holds are dropped uncommitted (KafkaJS gives
 * no moment before the partitions are revoked: they may already belong to another member).
 *
 * A flush that throws drops its partition's holds and seeks the partition back to the failed
 * flush's first offset. Thrown from a batch, or rethrown by the partition's next batch when a
 * budget flush failed, the error leaves eachBatch and kafkajs' runner retries, with backoff (5
 * times from 300 ms by default), any error not marked `retriable: false` — a SegmentConflictError
 * is retriable, and the segment writer rereads the segments it conflicted on. When the retries
 * run out, kafkajs restarts the consumer, which rejoins the group (and so forgets the sink's
 * cache). An error marked not retriable, or a TypeError and the like, stops the consumer for
 * good: /health then answers 503.
 */
export class RollupConsumer {
  private flushesWritten = 0;
  private newestEventTs = Number.NEGATIVE_INFINITY;
  // Lives as long as the process: the same series come back in every flush of every partition.
  private readonly seriesKeys = new SeriesKeyCache();
  private readonly partitions = new Map<number, PartitionState>();
  private timer: NodeJS.Timeout | undefined;
  private draining = false;
  /** The latest batch's heartbeat: kept alive through long writes (see writeHold). */
  private heartbeat: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: RollupConsumerDeps,
    private readonly options: RollupConsumerOptions,
  ) {}

  async start(): Promise<void> {
    const { consumer, sink } = this.deps;
    // Emitted synchronously after each join and sync, before the first fetch of the new
    // assignment, so no flush of a newly owned partition plans from a cache or a hold of an
    // earlier assignment.
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.dropHolds();
      sink.forget?.();
    });
    await consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently,
      eachBatch: (payload) => this.eachBatch(payload),
    });
    if (this.options.budgetMs > 0) {
      // A twentieth of the budget, at most 250 ms: a quiet partition's records wait at most that
      // much beyond their budget (the check is a pass over the assigned partitions).
      const every = Math.max(10, Math.min(250, Math.floor(this.options.budgetMs / 20)));
      this.timer = setInterval(() => this.flushDue(), every);
      this.timer.unref();
    }
  }

  /**
   * SIGTERM: stops taking new records and writes and commits everything held, while the
   * consumer is still a member of its group. A hold whose write fails stays uncommitted.
   */
  async drain(): Promise<void> {
    this.draining = true;
    clearInterval(this.timer);
    await Promise.all(
      [...this.partitions.values()].map((state) =>
        this.flushPartition(state, 'drain').catch(() => undefined),
      ),
    );
  }

  private dropHolds(): void {
    for (const state of this.partitions.values()) {
      state.epoch += 1;
      state.hold = new PartitionHold();
      state.failure = undefined;
    }
    this.reportHolds();
  }

  private stateOf(partition: number): PartitionState {
    let state = this.partitions.get(partition);
    if (state === undefined) {
      state = {
        partition,
        hold: new PartitionHold(),
        chain: Promise.resolve(),
        epoch: 0,
        highWatermark: '0',
        lastWriteMs: 0,
      };
      this.partitions.set(partition, state);
    }
    return state;
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const state = this.stateOf(batch.partition);
    if (state.failure !== undefined) {
      const failure = state.failure;
      state.failure = undefined;
      throw failure;
    }
    state.highWatermark = batch.highWatermark;
    this.heartbeat = () => payload.heartbeat();
    const epoch = state.epoch;
    const gone = () =>
      this.draining || !payload.isRunning() || payload.isStale() || state.epoch !== epoch;
    let next = 0;
    while (next < batch.messages.length) {
      // Shutting down, rebalanced away or rewound: leave the rest unread and uncommitted.
      if (gone()) return;
      const chunk = batch.messages.slice(next, next + room(state.hold, this.options));
      next += chunk.length;
      if (!(await this.hold(state, chunk, epoch))) return;
      payload.resolveOffset(chunk[chunk.length - 1]!.offset);
      const cause = flushCause(state.hold, this.deps.clock(), this.limitsOf(state), false);
      if (cause !== undefined) await this.flushPartition(state, cause);
      await payload.heartbeat();
    }
    if (gone()) return;
    const cause = flushCause(state.hold, this.deps.clock(), this.limitsOf(state), true);
    if (cause !== undefined) await this.flushPartition(state, cause);
    const holds = new Map([...this.partitions].map(([p, held]) => [p, held.hold] as const));
    for (const partition of overMemory(holds, this.options.maxHeldBytes))
      await this.flushPartition(this.partitions.get(partition)!, 'memory');
  }

  /**
   * Decodes a run of records, dead-letters the bad ones and holds the good ones; false when the
   * partition's holds were dropped meanwhile (the records are consumed again from the seek).
   */
  private async hold(
    state: PartitionState,
    messages: KafkaMessage[],
    epoch: number,
  ): Promise<boolean> {
    const { codec, metrics, producer, logger, clock } = this.deps;
    const { partition } = state;
    const now = clock();
    const { inputs, letters } = await decodeChunk(codec, this.seriesKeys, partition, messages, {
      maxLatenessMs: this.options.maxLatenessMs,
      maxFutureMs: this.options.maxFutureMs,
    });
    metrics.ticks.inc(messages.length);
    for (const letter of letters) metrics.deadLetters.inc({ reason: letter.reason });
    if (letters.length > 0) {
      logger.warn(
        { partition, count: letters.length, first: letters[0]?.reason },
        'records rejected',
      );
      if (this.options.ownsDeadLetters) {
        await sendDeadLetters(producer, this.options.dlqTopic, this.options.topic, letters, now);
      }
    }
    if (state.epoch !== epoch) return false;
    state.hold.add(
      inputs,
      messages[0]!.offset,
      messages[messages.length - 1]!.offset,
      messages.length,
      heldSince(now, Number(messages[0]!.timestamp), this.options.budgetMs),
    );
    this.reportHolds();
    return true;
  }

  /** Writes the due holds of every partition (the timer's check). */
  private flushDue(): void {
    const now = this.deps.clock();
    for (const state of this.partitions.values()) {
      if (!state.hold.isDue(now, this.limitsOf(state).budgetMs)) continue;
      this.flushPartition(state, 'budget').catch((err: unknown) => {
        state.failure ??= err instanceof Error ? err : new Error(String(err));
      });
    }
  }

  /** The partition's limits: its budget less the time its last write took (writeLead). */
  private limitsOf(state: PartitionState): HoldLimits {
    return {
      budgetMs: dueAfter(this.options.budgetMs, state.lastWriteMs),
      flushMaxTicks: this.options.flushMaxTicks,
    };
  }

  /** Queues a write of whatever the partition holds when its turn comes; resolves once committed. */
  private flushPartition(state: PartitionState, cause: FlushCause): Promise<void> {
    const run = state.chain.then(() => this.writeHold(state, cause));
    state.chain = run.catch(() => undefined);
    return run;
  }

  private async writeHold(state: PartitionState, cause: FlushCause): Promise<void> {
    const epoch = state.epoch;
    const held = state.hold.take();
    this.reportHolds();
    if (held === undefined) return;
    const { consumer, metrics, logger } = this.deps;
    const { partition } = state;
    // A hold of a whole budget can take longer to write than the group's session timeout, and
    // kafkajs only heartbeats between batches: keep the membership alive meanwhile.
    const beat = setInterval(() => void this.heartbeat?.().catch(() => undefined), 3000);
    const started = this.deps.clock();
    try {
      await this.write(partition, held);
      metrics.flushCauses.inc({ cause });
      // Rejoined while writing: the partition may be another member's now. What was written
      // stays (the guard), and its next owner resumes from the last commit.
      if (state.epoch !== epoch) return;
      const next = (BigInt(held.lastOffset) + 1n).toString();
      await consumer.commitOffsets([{ topic: this.options.topic, partition, offset: next }]);
      if (held.inputs.length > 0) state.lastWriteMs = this.deps.clock() - started;
      metrics.lag.set(
        { partition: String(partition) },
        Math.max(0, Number(BigInt(state.highWatermark) - BigInt(next))),
      );
    } catch (err) {
      metrics.flushFailures.inc();
      logger.warn(
        { err, partition, fromOffset: held.firstOffset, cause },
        'flush failed before its commit; the partition is consumed again from its last commit',
      );
      if (state.epoch === epoch) {
        // Everything held after this flush went with it: consume it all again from here.
        state.epoch += 1;
        state.hold = new PartitionHold();
        this.reportHolds();
        try {
          consumer.seek({ topic: this.options.topic, partition, offset: held.firstOffset });
        } catch (seekError) {
          // Stopped or rejoining: the next assignment starts from the last commit anyway.
          logger.debug({ err: seekError, partition }, 'no seek after a failed flush');
        }
      }
      throw err;
    } finally {
      clearInterval(beat);
    }
  }

  private async write(partition: number, held: HeldTicks): Promise<void> {
    const { sink, metrics, logger } = this.deps;
    const stopTimer = metrics.flushSeconds.startTimer();
    const { inputs } = held;
    if (inputs.length > 0) {
      const stats = await sink.apply(inputs);
      metrics.applied.inc(inputs.length);
      metrics.operations.inc(stats.operations);
      // Late ticks must not move "freshness" backwards.
      for (const input of inputs) if (input.ts > this.newestEventTs) this.newestEventTs = input.ts;
      metrics.newestEventTime.set(this.newestEventTs / 1000);
      logger.debug(
        {
          partition,
          fromOffset: held.firstOffset,
          toOffset: held.lastOffset,
          ticks: inputs.length,
          heldMs: this.deps.clock() - held.heldSince,
          ...stats,
        },
        'flush written',
      );
    }
    metrics.flushes.inc();
    stopTimer();
    this.flushesWritten += 1;
    this.options.afterWrite?.(this.flushesWritten);
  }

  private reportHolds(): void {
    let records = 0;
    let bytes = 0;
    for (const state of this.partitions.values()) {
      records += state.hold.records;
      bytes += state.hold.bytes;
    }
    this.deps.metrics.heldRecords.set(records);
    this.deps.metrics.heldBytes.set(bytes);
  }
}
