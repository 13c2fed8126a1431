import { SchemaType } from '@kafkajs/confluent-schema-registry';
import {
  createKafka,
  createMongoClient,
  createRegistry,
  kafkaSecurity,
  probeDependencies,
} from '@tickertape/clients';
import { registryEndpoint } from '@tickertape/config';
import { withDeadline } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { Partitioners } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import type { CliEnv } from '../env.js';
import { ROUNDTRIP_SCHEMA, type RoundtripTick } from './roundtrip-schema.js';

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
  document: Record<string, unknown>;
}

/**
 * Publishes one Avro tick through the Schema Registry, consumes it back from Kafka, and upserts
 * it into a per-minute document in MongoDB — the shortest path a tick takes through the stack.
 * Safe to run again: the topic and subject are reused, each run has its own consumer group and
 * its own tick.
 */
export async function roundtrip(
  env: CliEnv,
  options: RoundtripOptions,
  logger: Logger,
): Promise<RoundtripResult> {
  const security = kafkaSecurity(env);
  const registryAt = registryEndpoint(env);
  await probeDependencies(
    {
      KAFKA_BROKERS: env.KAFKA_BROKERS,
      SCHEMA_REGISTRY_URL: env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: env.MONGODB_URI,
      kafkaSecurity: security,
      registryAuth: registryAt,
    },
    logger,
    env.STARTUP_TIMEOUT_MS,
  );
  const kafka = createKafka({
    ...security,
    brokers: env.KAFKA_BROKERS,
    clientId: 'tickertape-roundtrip',
    logger,
  });
  const registry = createRegistry(registryAt);
  const mongo = createMongoClient({
    uri: env.MONGODB_URI,
    appName: 'tickertape-roundtrip',
    logger,
  });

  const admin = kafka.admin();
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const runId = randomUUID();
  const consumer = kafka.consumer({ groupId: `tickertape-roundtrip-${runId}` });
  try {
    await Promise.all([admin.connect(), producer.connect(), consumer.connect(), mongo.connect()]);
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

    const minute = Math.floor(got.tick.ts / 60_000) * 60_000;
    const second = Math.floor((got.tick.ts - minute) / 1000);
    const collection = mongo
      .db(options.database)
      .collection<{ _id: string; [key: string]: unknown }>('roundtrip_minute');
    const id = `${got.tick.metric}|sensor=s-1:${new Date(minute).toISOString().slice(0, 16).replace(/[-T:]/g, '')}`;
    const updates: Record<string, Record<string, unknown>> = {
      $inc: {},
      $min: {},
      $max: {},
      $set: {},
    };
    for (const [field, value] of Object.entries(got.tick.fields)) {
      updates.$inc![`f.${field}.n`] = 1;
      updates.$inc![`f.${field}.sum`] = value;
      updates.$min![`f.${field}.min`] = value;
      updates.$max![`f.${field}.max`] = value;
      updates.$set![`f.${field}.v.${second}`] = value;
    }
    await collection.updateOne(
      { _id: id },
      { ...updates, $setOnInsert: { start: new Date(minute) } },
      { upsert: true },
    );
    const document = await collection.findOne({ _id: id });
    if (!document) throw new Error(`document ${id} not found after upsert`);
    return { tick: got.tick, schemaId, partition: got.partition, offset: got.offset, document };
  } finally {
    await Promise.allSettled([
      consumer.disconnect(),
      producer.disconnect(),
      admin.disconnect(),
      mongo.close(),
    ]);
  }
}
