import { partitionOf, type Level } from '@tickertape/buckets';
import { consumerLag, rewindGroup } from '@tickertape/clients';
import { createLogger } from '@tickertape/logger';
import { storesOf } from '@tickertape/store';
import type { TestStack } from '@tickertape/testing';
import { waitFor } from '@tickertape/testing';
import { TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import { Partitioners } from 'kafkajs';
import { seriesKey } from '@tickertape/tick';
import { segmentCollection, type SegmentDocument } from '@tickertape/segments';
import { BSON, type Db, type Document } from 'mongodb';
import { parseWorkerEnv, type WorkerEnv, type WorkerMode } from '../../src/env.js';
import { startWorker, type WorkerHandle, type WorkerHooks } from '../../src/worker.js';
import type { ExpectedBucket } from './ticks.js';
import { testDatabase } from '@tickertape/store/testing';

/** As `tickertape topics create` makes the tick topic: records carry the broker's append time. */
const TICK_TOPIC_CONFIG_ENTRIES = { 'message.timestamp.type': 'LogAppendTime' };

/** One isolated pipeline on the real stack: its own topic, DLQ topic, subject and database. */
export class Pipeline {
  private readonly workers: WorkerHandle[] = [];

  private constructor(
    readonly stack: TestStack,
    readonly topic: string,
    readonly dlqTopic: string,
    readonly db: Db,
    readonly codec: TickCodec,
  ) {}

  static async create(stack: TestStack, partitions = 4): Promise<Pipeline> {
    const topic = await stack.createTopic({ partitions, config: TICK_TOPIC_CONFIG_ENTRIES });
    const dlqTopic = await stack.createTopic();
    const subject = stack.subject(valueSubject(topic));
    const codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject,
    });
    return new Pipeline(stack, topic, dlqTopic, testDatabase(stack), codec);
  }

  env(level: WorkerMode, overrides: Record<string, string> = {}): WorkerEnv {
    return parseWorkerEnv(this.rawEnv(level, overrides));
  }

  /** The same configuration as environment strings, for a worker run as a process. */
  rawEnv(level: WorkerMode, overrides: Record<string, string> = {}): Record<string, string> {
    return {
      KAFKA_BROKERS: this.stack.env.KAFKA_BROKERS.join(','),
      SCHEMA_REGISTRY_URL: this.stack.env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: this.stack.env.MONGODB_URI,
      MONGODB_DATABASE: this.db.databaseName,
      ROLLUP_LEVEL: level,
      TOPIC: this.topic,
      DLQ_TOPIC: this.dlqTopic,
      GROUP_ID: this.stack.name(`group-${level}`),
      HTTP_PORT: '0',
      FLUSH_MAX_WAIT_MS: '100',
      FLUSH_MIN_BYTES: '1',
      FLUSH_MAX_TICKS: '200',
      // Held across fetches (FLUSH_MAX_WAIT_MS is 100), but visible soon enough for a test.
      FRESHNESS_BUDGET_MS: '300',
      LOG_LEVEL: 'warn',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      ...overrides,
    };
  }

  async startWorker(env: WorkerEnv, hooks: WorkerHooks = {}): Promise<WorkerHandle> {
    const logger = createLogger({ name: `test-worker-${env.ROLLUP_LEVEL}`, level: env.LOG_LEVEL });
    const worker = await startWorker(env, logger, hooks);
    this.workers.push(worker);
    return worker;
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop()));
  }

  /** Stops one worker and lets the others run (its group rebalances). */
  async stopWorker(worker: WorkerHandle): Promise<void> {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    await worker.stop();
  }

  /** Moves a group with no running member back to the start of the topic: a replay. */
  async resetOffsets(groupId: string): Promise<void> {
    await rewindGroup(await this.stack.admin(), groupId, this.topic);
  }

  /** Every segment document, in day then `_id` order, with the collection it was read from. */
  async segments(): Promise<(SegmentDocument & { collection: string })[]> {
    const out: (SegmentDocument & { collection: string })[] = [];
    for (const day of await (await storesOf(this.db)).segments.listDays()) {
      const collection = segmentCollection(day);
      const docs = await this.db
        .collection<SegmentDocument>(collection)
        .find()
        .sort({ _id: 1 })
        .toArray();
      out.push(...docs.map((doc) => ({ ...doc, collection })));
    }
    return out;
  }

  /** Every segment document as the bytes the server returns, by collection and id. */
  async rawSegments(): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    for (const day of await (await storesOf(this.db)).segments.listDays()) {
      const collection = segmentCollection(day);
      const docs = (await this.db
        .collection(collection)
        .find({}, { raw: true, sort: { _id: 1 } })
        .toArray()) as unknown as Buffer[];
      for (const doc of docs)
        out.set(`${collection}/${String(BSON.deserialize(doc)._id)}`, Buffer.from(doc));
    }
    return out;
  }

  /** Publishes keyed by series key, as the producer SDK does. */
  async publish(ticks: readonly Tick[]): Promise<void> {
    const producer = this.stack.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    try {
      const messages = await Promise.all(
        ticks.map(async (tick) => ({
          key: seriesKey(tick.metric, tick.tags),
          value: await this.codec.encode(tick),
        })),
      );
      for (let i = 0; i < messages.length; i += 500)
        await producer.send({ topic: this.topic, messages: messages.slice(i, i + 500) });
    } finally {
      await producer.disconnect();
    }
  }

  /** Publishes raw bytes (bad input), keyed so they share partitions with good ticks. */
  async publishRaw(messages: { key: string; value: Buffer | null }[]): Promise<void> {
    const producer = this.stack.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    try {
      await producer.send({ topic: this.topic, messages });
    } finally {
      await producer.disconnect();
    }
  }

  /** Waits until `groupId` has committed every record of the topic: all handled. */
  async waitCaughtUp(groupId: string, timeoutMs = 60_000): Promise<void> {
    const admin = await this.stack.admin();
    await waitFor(async () => (await consumerLag(admin, groupId, this.topic)).total === 0, {
      description: `group ${groupId} to commit every partition of ${this.topic}`,
      timeoutMs,
      intervalMs: 200,
    });
  }

  /** Every bucket of a level, by id, reduced to what the expectations cover. */
  async buckets(level: Level, ticks: readonly Tick[]): Promise<Map<string, ExpectedBucket>> {
    const names = new Set(ticks.map((t) => partitionOf(level, t.ts).name));
    const out = new Map<string, ExpectedBucket>();
    for (const name of names) {
      for (const doc of await this.db
        .collection<Document & { _id: string }>(name)
        .find()
        .toArray()) {
        const speed = (doc.f as Document).speed as {
          n: number;
          sum: number;
          min: number;
          max: number;
          first: { v: number };
          last: { v: number };
          /** Minute buckets: the sum of each second's values (docs/data-layout.md). */
          sec?: Record<string, number>;
        };
        out.set(doc._id, {
          n: doc.n as number,
          speed: {
            n: speed.n,
            sum: speed.sum,
            min: speed.min,
            max: speed.max,
            first: speed.first.v,
            last: speed.last.v,
          },
          seconds: speed.sec,
        });
      }
    }
    return out;
  }
}

/** A metric's value in a Prometheus text page (a worker process's /metrics), summed over its samples. */
export function metricValue(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/** A counter's current value from a worker's own metrics registry. */
export async function counter(worker: WorkerHandle, name: string): Promise<number> {
  return metricValue(await worker.metrics.registry.getSingleMetricAsString(name), name);
}
