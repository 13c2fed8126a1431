import type { Logger } from '@tickertape/logger';
import type { RollupWriter } from '@tickertape/store';
import type { TickCodec } from '@tickertape/tick';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { sendDeadLetters } from './dead-letter.js';
import { decodeChunk } from './decode-chunk.js';
import type { WorkerMetrics } from './metrics.js';

export interface RollupConsumerOptions {
  topic: string;
  dlqTopic: string;
  /** Whether this level's workers write the DLQ (only one level does; see env). */
  ownsDeadLetters: boolean;
  flushMaxTicks: number;
  maxLatenessMs: number;
  maxFutureMs: number;
  /** Fault injection: called after the n-th flush is written, before its commit. */
  afterWrite?: (flushesWritten: number) => void;
}

export interface RollupConsumerDeps {
  consumer: Consumer;
  producer: Producer;
  codec: TickCodec;
  writer: RollupWriter;
  metrics: WorkerMetrics;
  logger: Logger;
  clock: () => number;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The worker's loop. Kafka does the size-or-time batching (the fetch returns at FLUSH_MIN_BYTES
 * or after FLUSH_MAX_WAIT_MS); each partition batch is written in flushes of at most
 * FLUSH_MAX_TICKS: decode → dead-letter → fold + guarded bulk write → commit. No buffer spans
 * fetches, so a rebalance never leaves half-flushed state behind.
 */
export class RollupConsumer {
  private flushesWritten = 0;
  private newestEventTs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: RollupConsumerDeps,
    private readonly options: RollupConsumerOptions,
  ) {}

  async start(): Promise<void> {
    const { consumer } = this.deps;
    await consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    for (const chunk of chunks(batch.messages, this.options.flushMaxTicks)) {
      // Shutting down or rebalanced away: abandon without committing; the next owner redoes it.
      if (!payload.isRunning() || payload.isStale()) return;
      await this.flush(batch.partition, chunk);
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
    const { codec, writer, metrics, producer, logger, clock } = this.deps;
    const stopTimer = metrics.flushSeconds.startTimer();
    const now = clock();
    const { inputs, letters } = await decodeChunk(codec, partition, messages, {
      nowMs: now,
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
      const stats = await writer.apply(inputs);
      metrics.applied.inc(inputs.length);
      metrics.buckets.inc(stats.buckets);
      metrics.operations.inc(stats.operations);
      metrics.bulkWrites.inc(stats.bulkWrites);
      metrics.conflicts.inc(stats.conflicts);
      // Late ticks must not move "freshness" backwards.
      for (const input of inputs) if (input.ts > this.newestEventTs) this.newestEventTs = input.ts;
      metrics.newestEventTime.set(this.newestEventTs / 1000);
      logger.debug({ partition, ticks: inputs.length, ...stats }, 'flush written');
    }
    metrics.flushes.inc();
    stopTimer();
    this.flushesWritten += 1;
    this.options.afterWrite?.(this.flushesWritten);
  }
}
