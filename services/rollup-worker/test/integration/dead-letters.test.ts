import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, waitFor } from '@tickertape/testing';
import { DLQ_HEADERS, TICK_SCHEMA_V2, seriesKey, type Tick } from '@tickertape/tick';
import avsc from 'avsc';
import type { KafkaMessage } from 'kafkajs';
import { counter, Pipeline } from '../support/harness.js';
import { expectedBuckets, trafficTicks } from '../support/ticks.js';

const avro = avsc.Type.forSchema(TICK_SCHEMA_V2);

/** A Confluent-framed message written straight with avsc, bypassing the codec's validation. */
function frame(schemaId: number, record: Record<string, unknown>, magic = 0): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(magic, 0);
  header.writeUInt32BE(schemaId, 1);
  return Buffer.concat([header, avro.toBuffer({ strings: {}, source: null, ...record })]);
}

describe('dead letters', () => {
  let stack: TestStack;
  let pipeline: Pipeline;

  beforeAll(async () => {
    stack = await TestStack.open('dlq');
    pipeline = await Pipeline.create(stack, 1);
  });
  afterAll(async () => {
    await pipeline.stopWorkers();
    await stack.close();
  });

  it('sends every bad-input kind to the DLQ with its reason and source position, and writes the good ticks of the same batch', async () => {
    const now = Date.now();
    const id = pipeline.codec.schemaId;
    const ok = (over: Partial<Tick>) => ({
      metric: 'traffic',
      tags: { sensor: 'bad' },
      ts: now - 60_000,
      fields: { speed: 50 },
      ...over,
    });
    const bad: [string, Buffer | null][] = [
      ['BAD_MAGIC_BYTE', frame(id, ok({}), 1)],
      ['UNKNOWN_SCHEMA', frame(987_654, ok({}))],
      [
        'DECODE_ERROR',
        Buffer.concat([frame(id, ok({})).subarray(0, 5), Buffer.from([0xff, 0xff, 0xff, 0xff])]),
      ],
      ['DECODE_ERROR', null],
      ['MISSING_METRIC', frame(id, ok({ metric: '' }))],
      ['INVALID_VALUE', frame(id, ok({ fields: { speed: Number.NaN } }))],
      ['INVALID_VALUE', frame(id, ok({ fields: { speed: Number.POSITIVE_INFINITY } }))],
      ['INVALID_VALUE', frame(id, ok({ fields: { speed: Number.NEGATIVE_INFINITY } }))],
      [
        'TOO_MANY_FIELDS',
        frame(
          id,
          ok({ fields: Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`f${i}`, i])) }),
        ),
      ],
      [
        'TOO_MANY_TAGS',
        frame(
          id,
          ok({ tags: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`t${i}`, 'x'])) }),
        ),
      ],
      ['OVERSIZED', frame(id, ok({ strings: { blob: 'x'.repeat(70_000) } }))],
      ['TIMESTAMP_OUT_OF_RANGE', frame(id, ok({ ts: -1000 }))],
      ['TIMESTAMP_OUT_OF_RANGE', frame(id, ok({ ts: Date.UTC(2200, 0, 1) }))],
      ['TIMESTAMP_OUT_OF_RANGE', frame(id, ok({ ts: now + 3_600_000 }))],
      ['NO_FIELDS', frame(id, ok({ fields: {} }))],
      ['INVALID_NAME', frame(id, ok({ fields: { 'speed.avg': 1 } }))],
      ['TOO_LATE', frame(id, ok({ ts: now - 7 * 3_600_000 }))],
    ];
    const good = trafficTicks(now, { series: 3, minutes: 2, stepMs: 5000 });
    const key = seriesKey('traffic', { sensor: 'bad' });
    // Good ticks before and after the bad ones, in the same partition and the same fetch.
    await pipeline.publish(good.slice(0, 40));
    await pipeline.publishRaw(bad.map(([, value]) => ({ key, value })));
    await pipeline.publish(good.slice(40));

    const env = pipeline.env('minute', { FLUSH_MAX_TICKS: '5000' });
    const worker = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(await pipeline.buckets('minute', good)).toEqual(expectedBuckets('minute', good));
    expect(await counter(worker, 'tickertape_ticks_applied_total')).toBe(good.length);
    expect(await counter(worker, 'tickertape_dead_letters_total')).toBe(bad.length);

    const letters: KafkaMessage[] = [];
    const consumer = stack.kafka.consumer({
      groupId: stack.name('dlq-reader'),
      maxWaitTimeInMs: 200,
    });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: pipeline.dlqTopic, fromBeginning: true });
      await consumer.run({
        eachMessage: ({ message }) => Promise.resolve(void letters.push(message)),
      });
      await waitFor(() => letters.length >= bad.length, {
        description: `${bad.length} DLQ records`,
        timeoutMs: 30_000,
      });
    } finally {
      await consumer.disconnect();
    }

    expect(letters).toHaveLength(bad.length);
    const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();
    expect(letters.map((m) => header(m, DLQ_HEADERS.reason)).sort()).toEqual(
      bad.map(([reason]) => reason).sort(),
    );
    for (const [i, letter] of letters.entries()) {
      // Original bytes untouched, with where they came from.
      expect(letter.value === null ? null : Buffer.from(letter.value)).toEqual(bad[i]![1]);
      expect(header(letter, DLQ_HEADERS.topic)).toBe(pipeline.topic);
      expect(header(letter, DLQ_HEADERS.partition)).toBe('0');
      expect(Number(header(letter, DLQ_HEADERS.offset))).toBe(40 + i);
      expect(header(letter, DLQ_HEADERS.detail)).toBeTruthy();
    }
  }, 120_000);
});
