import { seriesKey, validateTick, type Tick, type TickCodec } from '@tickertape/tick';
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import { Batcher } from './batcher.js';
import { ProduceFailedError, ProducerClosedError } from './errors.js';

export interface TickProducerOptions {
  topic: string;
  /** A batch leaves as soon as it holds this many ticks (default 500). */
  maxBatchTicks?: number;
  /** …or once its oldest tick has waited this long (default 20 ms). */
  lingerMs?: number;
  /** Stamped on ticks that carry no `source` (schema v2 keeps it; a v1 codec drops it). */
  source?: string;
}

export const DEFAULT_MAX_BATCH_TICKS = 500;
export const DEFAULT_LINGER_MS = 20;

export interface TickProducerStats {
  /** Ticks the broker acknowledged. */
  sent: number;
  /** `send` calls made to kafkajs, one per batch, acknowledged or not. */
  batches: number;
  /** Encoded bytes (Avro values with their wire header) the broker acknowledged. */
  bytes: number;
  /** Ticks refused before buffering: invalid, or not encodable. */
  rejected: number;
  /** Ticks whose batch the broker did not acknowledge. */
  failed: number;
  /** Ticks taken and not yet acknowledged or failed. */
  pending: number;
}

/** What the load runner and the CLI need of a producer; the TickProducer is the real one. */
export interface TickSink {
  send(tick: Tick): Promise<void>;
  flush(): Promise<void>;
}

/**
 * Publishes ticks to one topic in batches, keyed by series key so a series always lands in one
 * partition (the exactly-once protocol needs one writer per bucket; docs/exactly-once.md).
 * Idempotent, with one request in flight: a retried batch is neither duplicated nor overtaken
 * by the next one, so each series keeps its order in its partition.
 */
export class TickProducer implements TickSink {
  readonly topic: string;
  private readonly batcher: Batcher<Message>;
  private readonly source: string | undefined;
  /** Encodes run one after another so ticks enter the batch in the order `send` was called. */
  private lastEncode: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private readonly counts = { sent: 0, batches: 0, bytes: 0, rejected: 0, failed: 0, pending: 0 };

  private constructor(
    private readonly producer: Producer,
    private readonly codec: TickCodec,
    options: TickProducerOptions,
  ) {
    this.topic = options.topic;
    this.source = options.source;
    this.batcher = new Batcher<Message>({
      maxItems: options.maxBatchTicks ?? DEFAULT_MAX_BATCH_TICKS,
      lingerMs: options.lingerMs ?? DEFAULT_LINGER_MS,
      send: (messages) => this.sendBatch(messages),
    });
  }

  /**
   * A connected producer. `codec` must already be registered (TickCodec.register) under the
   * topic's value subject.
   */
  static async connect(
    kafka: Kafka,
    codec: TickCodec,
    options: TickProducerOptions,
  ): Promise<TickProducer> {
    // kafkajs' idempotent mode needs acks -1 (every send below) and retries > 0 (its default
    // for idempotent producers is unlimited, bounded by the retrier's 30 s maxRetryTime). One
    // request in flight keeps sequence numbers in order on every broker connection.
    const producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    return new TickProducer(producer, codec, options);
  }

  get stats(): TickProducerStats {
    return { ...this.counts };
  }

  /**
   * Takes one tick. An invalid tick rejects at once with its TickRejectedError and is not
   * buffered. Otherwise the promise resolves when the broker acknowledged the tick's batch
   * (await it for durability) and rejects with a ProduceFailedError if the batch failed.
   * Do not change the tick after handing it over: it is encoded later.
   */
  send(tick: Tick): Promise<void> {
    if (this.closing !== undefined) return Promise.reject(new ProducerClosedError(this.topic));
    let valid: Tick;
    try {
      valid = validateTick(
        this.source !== undefined && (tick.source === undefined || tick.source === null)
          ? { ...tick, source: this.source }
          : tick,
        this.codec.limits,
      );
    } catch (err) {
      this.counts.rejected += 1;
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const key = seriesKey(valid.metric, valid.tags);
    this.counts.pending += 1;
    // The ack promise is wrapped so `lastEncode` settles once the tick is in the batcher (not
    // when it is acknowledged): a flush then always covers every tick sent before it.
    const added = this.lastEncode
      .then(() => this.codec.encode(valid))
      .then((value) => ({ ack: this.batcher.add({ key, value }) }));
    this.lastEncode = added.then(
      () => undefined,
      () => undefined,
    );
    return added
      .then(
        ({ ack }) => ack,
        (err: unknown) => {
          // OVERSIZED once encoded, or the registry could not be asked for the schema.
          this.counts.rejected += 1;
          throw err;
        },
      )
      .finally(() => {
        this.counts.pending -= 1;
      });
  }

  /**
   * Sends whatever is buffered without waiting for the linger and resolves once every tick
   * taken before the call has been acknowledged or has failed (each `send` promise says which).
   */
  async flush(): Promise<void> {
    await this.lastEncode;
    await this.batcher.flush();
  }

  /** Refuses new ticks, flushes the rest, disconnects. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      try {
        await this.flush();
      } finally {
        await this.producer.disconnect();
      }
    })();
    return this.closing;
  }

  private async sendBatch(messages: Message[]): Promise<void> {
    this.counts.batches += 1;
    try {
      await this.producer.send({ topic: this.topic, acks: -1, messages });
    } catch (err) {
      this.counts.failed += messages.length;
      throw new ProduceFailedError(this.topic, messages.length, err);
    }
    this.counts.sent += messages.length;
    for (const message of messages) this.counts.bytes += (message.value as Buffer).length;
  }
}
