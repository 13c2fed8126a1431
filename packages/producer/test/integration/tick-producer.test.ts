/**
 * The TickProducer against the real broker and registry: keyed batches land each series in one
 * partition, decode back to the ticks sent, and take fewer requests than ticks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, waitFor } from '@tickertape/testing';
import { isTickRejected, seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import type { KafkaMessage } from 'kafkajs';
import { ProducerClosedError, TickProducer } from '../../src/index.js';

const T0 = Date.UTC(2026, 10, 21, 8);

function sensorTicks(series: number, perSeries: number): Tick[] {
  const ticks: Tick[] = [];
  for (let i = 0; i < perSeries; i += 1) {
    for (let s = 0; s < series; s += 1) {
      ticks.push({
        metric: 'traffic',
        tags: { sensor: `S${s}`, segment: `I80_mile${s * 3}` },
        ts: T0 + i * 1000 + s,
        fields: { speed: 40 + ((i + s) % 30), travel_time: 60 + s },
        strings: { conditions: i % 2 === 0 ? 'clear' : 'rain' },
      });
    }
  }
  return ticks;
}

interface Received {
  partition: number;
  message: KafkaMessage;
}

describe('TickProducer', () => {
  let stack: TestStack;
  let topic: string;
  let codec: TickCodec;

  beforeAll(async () => {
    stack = await TestStack.open('producer');
    topic = await stack.createTopic({ partitions: 4 });
    codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: stack.subject(valueSubject(topic)),
    });
  });
  afterAll(() => stack.close());

  async function consume(count: number): Promise<Received[]> {
    const consumer = stack.kafka.consumer({ groupId: stack.name('group') });
    const received: Received[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: ({ partition, message }) => {
          received.push({ partition, message });
          return Promise.resolve();
        },
      });
      await waitFor(() => received.length >= count, {
        description: `${count} messages on ${topic}`,
        timeoutMs: 30_000,
      });
    } finally {
      await consumer.disconnect();
    }
    return received;
  }

  it('publishes keyed batches: one partition per series, decoded back equal, fewer sends than ticks', async () => {
    const producer = await TickProducer.connect(stack.kafka, codec, {
      topic,
      maxBatchTicks: 50,
      source: 'producer-test',
    });
    const ticks = sensorTicks(8, 50);
    await Promise.all(ticks.map((tick) => producer.send(tick)));
    const stats = producer.stats;
    await producer.close();

    expect(stats).toMatchObject({ sent: 400, failed: 0, rejected: 0, pending: 0 });
    expect(stats.batches).toBeGreaterThanOrEqual(8);
    expect(stats.batches).toBeLessThan(ticks.length);
    expect(stats.bytes).toBeGreaterThan(400 * 20);

    const received = await consume(ticks.length);
    expect(received).toHaveLength(ticks.length);
    const partitionsBySeries = new Map<string, Set<number>>();
    const decodedBySeries = new Map<string, Tick[]>();
    for (const { partition, message } of received) {
      const key = message.key!.toString();
      const tick = await codec.decode(message.value!);
      expect(key).toBe(seriesKey(tick.metric, tick.tags));
      partitionsBySeries.set(key, (partitionsBySeries.get(key) ?? new Set()).add(partition));
      decodedBySeries.set(key, [...(decodedBySeries.get(key) ?? []), tick]);
    }
    expect(partitionsBySeries.size).toBe(8);
    for (const partitions of partitionsBySeries.values()) expect(partitions.size).toBe(1);
    // Eight fixed keys hash to more than one of the four partitions.
    expect(new Set([...partitionsBySeries.values()].flatMap((p) => [...p])).size).toBeGreaterThan(
      1,
    );
    // Decoded equal to what was sent, in the order sent within each series.
    for (const [key, decoded] of decodedBySeries) {
      const sent = ticks.filter((t) => seriesKey(t.metric, t.tags) === key);
      expect(decoded).toEqual(sent.map((t) => ({ ...t, source: 'producer-test' })));
    }
  }, 60_000);

  it('rejects an invalid tick at once with its TickRejectedError, sending nothing', async () => {
    const producer = await TickProducer.connect(stack.kafka, codec, { topic });
    try {
      const bad: Tick = { ...sensorTicks(1, 1)[0]!, fields: { speed: Number.NaN } };
      const err: unknown = await producer.send(bad).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isTickRejected(err, 'INVALID_VALUE')).toBe(true);
      expect(producer.stats).toMatchObject({ rejected: 1, pending: 0, batches: 0, sent: 0 });
    } finally {
      await producer.close();
    }
  }, 30_000);

  it('flushes on demand without waiting for the linger, and refuses ticks once closed', async () => {
    const producer = await TickProducer.connect(stack.kafka, codec, {
      topic,
      lingerMs: 600_000,
      maxBatchTicks: 10_000,
    });
    const acks = sensorTicks(3, 1).map((tick) => producer.send(tick));
    expect(producer.stats.sent).toBe(0);
    await producer.flush();
    expect(producer.stats).toMatchObject({ sent: 3, batches: 1, pending: 0 });
    await Promise.all(acks);
    await producer.close();
    await producer.close(); // a second close is harmless
    await expect(producer.send(sensorTicks(1, 1)[0]!)).rejects.toBeInstanceOf(ProducerClosedError);
  }, 30_000);
});
