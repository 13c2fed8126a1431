import { SchemaType } from '@kafkajs/confluent-schema-registry';
import { createKafka, createRegistry, probePipeline } from '@tickertape/clients';
import { bucketId, foldInputOf, LEVELS, partitionOf, slotStart } from '@tickertape/buckets';
import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { openMongoStores, probeMongo, type MongoStores } from '@tickertape/store';
import { seriesKey } from '@tickertape/tick';
import { Partitioners } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { requireStack, type CliEnv } from '../../../env.js';
import { ROUNDTRIP_SCHEMA, type RoundtripTick } from './schema.js';

export interface RoundtripOptions {
  topic: string;
  database: string;
  timeoutMs: number;
}

export interface RoundtripResult {
  tick: RoundtripTick;
  schemaId: number;
  partition: number;
  offset: string;
  /** The minute partition the bucket is in. */
  collection: string;
  document: Record<string, unknown>;
}

/**
 * Publishes one Avro tick through the Schema Registry, consumes it back from Kafka, and writes it
 * into its minute bucket with the workers' writer — the shortest path a tick takes through the
 * stack.
 * Safe to run again: the topic and subject are reused, each run has its own consumer group and
 * its own tick.
 */
export async function roundtrip(
  given: CliEnv,
  options: RoundtripOptions,
  logger: Logger,
): Promise<RoundtripResult> {
  const env = requireStack(given, 'KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGODB_URI');
  const { security, registryAt } = await probePipeline(env, logger, probeMongo);
  const kafka = createKafka({
    ...security,
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-roundtrip',
    logger,
  });
  const registry = createRegistry(registryAt);

  const admin = kafka.admin();
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const runId = randomUUID();
  const consumer = kafka.consumer({ groupId: `tickertape-roundtrip-${runId}` });
  let stores: MongoStores | undefined;
  try {
    [stores] = await Promise.all([
      openMongoStores({
        uri: env.MONGODB_URI,
        database: options.database,
        appName: 'tickertape-roundtrip',
        logger,
      }),
      admin.connect(),
      producer.connect(),
      consumer.connect(),
    ]);
    if (!(await admin.listTopics()).includes(options.topic)) {
      await admin.createTopics({
        topics: [{ topic: options.topic, numPartitions: 1 }],
        waitForLeaders: true,
      });
    }

    const { id: schemaId } = await registry.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(ROUNDTRIP_SCHEMA) },
      { subject: `${options.topic}-value` },
    );
    const tick: RoundtripTick = {
      metric: 'demo.temperature',
      tags: { sensor: 's-1', run: runId },
      ts: Date.now(),
      fields: { celsius: Math.round(200 + Math.random() * 50) / 10 },
    };
    const [sent] = await producer.send({
      topic: options.topic,
      messages: [
        { key: `demo.temperature|sensor=s-1`, value: await registry.encode(schemaId, tick) },
      ],
    });
    logger.info({ sent }, 'tick published');

    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    const received = new Promise<{ tick: RoundtripTick; partition: number; offset: string }>(
      (resolve, reject) => {
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              if (!message.value) return;
              const decoded = (await registry.decode(message.value)) as RoundtripTick;
              if (decoded.tags.run === runId)
                resolve({ tick: decoded, partition, offset: message.offset });
            },
          })
          .catch(reject);
      },
    );
    const got = await withDeadline(options.timeoutMs, 'the tick to come back from Kafka', received);

    // The workers' write path: the minute level's writer folds the tick into its bucket (a
    // fresh series per run, through its run tag), and the store reads the bucket back.
    const key = seriesKey(got.tick.metric, got.tick.tags);
    const [minute] = LEVELS;
    await stores.rollups
      .writer(minute)
      .apply([foldInputOf({ ...got.tick, strings: {} }, key, got.partition, Number(got.offset))]);
    const slot = slotStart(minute, got.tick.ts);
    const collection = partitionOf(minute, slot).name;
    const id = bucketId(minute, key, slot);
    const [document] = await stores.rollups.partition(collection).byIds([id]);
    if (!document) throw new Error(`bucket ${id} not found in ${collection} after the write`);
    return {
      tick: got.tick,
      schemaId,
      partition: got.partition,
      offset: got.offset,
      collection,
      document,
    };
  } finally {
    await Promise.allSettled([
      consumer.disconnect(),
      producer.disconnect(),
      admin.disconnect(),
      stores?.close(),
    ]);
  }
}
