import type { Tick, TickCodec } from '@tickertape/tick';
import type { Consumer, Kafka } from 'kafkajs';
import { WORKER_FETCH, writeBatch, type Design } from '../consume.js';

/**
 * D or E consuming a live topic in this process: each fetched batch decoded, handed to the
 * design, committed after it returns — what consumeInProcess does for a loaded topic, but
 * running until stopped, with the counts readable at any moment (the backlog when the producer
 * stops).
 */
export class LiveConsumer {
  readonly counts = { ticks: 0, ops: 0, requests: 0 };
  private failure: Error | undefined;

  private constructor(private readonly consumer: Consumer) {}

  static async start(options: {
    kafka: Kafka;
    codec: TickCodec;
    topic: string;
    groupId: string;
    design: Design;
    /** Called with each batch's ticks once the design's write of them was acknowledged. */
    written?: (ticks: readonly Tick[]) => void;
  }): Promise<LiveConsumer> {
    const consumer = options.kafka.consumer({ groupId: options.groupId, ...WORKER_FETCH });
    const live = new LiveConsumer(consumer);
    let joined!: () => void;
    const join = new Promise<void>((resolve) => (joined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => joined());
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        const { batch } = payload;
        if (live.failure !== undefined || batch.messages.length === 0) return;
        try {
          const handled = await writeBatch(
            payload,
            options.codec,
            options.design,
            options.topic,
            () => false,
          );
          options.written?.(handled.decoded);
          live.counts.ticks += handled.ticks;
          live.counts.ops += handled.ops;
          live.counts.requests += handled.requests;
          await payload.heartbeat();
        } catch (err) {
          live.failure = err instanceof Error ? err : new Error(String(err));
        }
      },
    });
    await join;
    return live;
  }

  /** Throws what a batch failed with, if one did. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
