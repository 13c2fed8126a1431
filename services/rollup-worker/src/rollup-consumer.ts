import type { FoldInput } from '@tickertape/buckets';
import type { Logger } from '@tickertape/logger';
import { SeriesKeyCache, type TickCodec } from '@tickertape/tick';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { sendDeadLetters } from './dead-letter.js';
import { decodeChunk } from './decode-chunk.js';
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
  flushMaxTicks: number;
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

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The worker's loop, for every mode. Kafka does the size-or-time batching (the fetch returns at
 * FLUSH_MIN_BYTES or after FLUSH_MAX_WAIT_MS); each partition batch is written in flushes of at
 * most FLUSH_MAX_TICKS: decode → dead-letter → guarded write by the sink → commit. No buffer
 * spans fetches, so a rebalance never leaves half-flushed state behind.
 *
 * A flush that throws is not committed, and neither is anything after it in the batch: the
 * error leaves eachBatch, and kafkajs' runner fetches the partition again from the failed
 * flush's first offset and retries, with backoff (5 times from 300 ms by default), any error
 * not marked `retriable: false` — a SegmentConflictError is retriable, and the segment writer
 * rereads the segments it conflicted on. When the retries run out, kafkajs restarts the consumer,
 * which rejoins the group (and so forgets the sink's cache). An error marked not retriable, or a
 * TypeError and the like, stops the consumer for good: /health then answers 503.
 */
export class RollupConsumer {
  private flushesWritten = 0;
  private newestEventTs = Number.NEGATIVE_INFINITY;
  // Lives as long as the process: the same series come back in every flush of every partition.
  private readonly seriesKeys = new SeriesKeyCache();

  constructor(
    private readonly deps: RollupConsumerDeps,
    private readonly options: RollupConsumerOptions,
  ) {}

  async start(): Promise<void> {
    const { consumer, sink } = this.deps;
    // Emitted synchronously after each join and sync, before the first fetch of the new
    // assignment, so no flush of a newly owned partition plans from a cache of an earlier owner.
    consumer.on(consumer.events.GROUP_JOIN, () => sink.forget?.());
    await consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    for (const chunk of chunks(batch.messages, this.options.flushMaxTicks)) {
      // Shutting down or rebalanced away: abandon without committing; the next owner redoes it.
      if (!payload.isRunning() || payload.isStale()) return;
      try {
        await this.flush(batch.partition, chunk);
      } catch (err) {
        this.deps.metrics.flushFailures.inc();
        this.deps.logger.warn(
          { err, partition: batch.partition, fromOffset: chunk[0]!.offset },
          'flush failed before its commit; the partition is fetched again from its last commit',
        );
        throw err;
      }
      const last = chunk[chunk.length - 1]!.offset;
      payload.resolveOffset(last);
      const next = (BigInt(last) + 1n).toString();
      await payload.commitOffsetsIfNecessary({
        topics: [
          { topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] },
        ],
      });
      this.deps.metrics.lag.set(
        { partition: String(batch.partition) },
        Number(BigInt(batch.highWatermark) - BigInt(next)),
      );
      await payload.heartbeat();
    }
  }

  private async flush(partition: number, messages: KafkaMessage[]): Promise<void> {
    const { codec, sink, metrics, producer, logger, clock } = this.deps;
    const stopTimer = metrics.flushSeconds.startTimer();
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
          fromOffset: messages[0]!.offset,
          toOffset: messages[messages.length - 1]!.offset,
          ticks: inputs.length,
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
}
