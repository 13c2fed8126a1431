/**
 * Redrive against DLQ records crafted the way the rollup worker writes them (its header names
 * are copied, not imported, in @tickertape/producer's DLQ_HEADERS; these records check the copy
 * is used consistently end to end).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DLQ_HEADERS, REDRIVEN_FROM_HEADER } from '@tickertape/producer';
import { TestStack } from '@tickertape/testing';
import { TickCodec, valueSubject } from '@tickertape/tick';
import { Partitioners, type IHeaders } from 'kafkajs';
import { readTopic, runCli } from '../support/cli.js';

const TS = Date.UTC(2026, 10, 21, 8);

interface Letter {
  dlqPartition: number;
  reason: string;
  sourcePartition: number;
  sourceOffset: number;
  key: string;
  value: Buffer;
  headers?: IHeaders;
}

describe('tickertape redrive', () => {
  let stack: TestStack;
  let topic: string;
  let dlqTopic: string;
  let letters: Letter[];

  beforeAll(async () => {
    stack = await TestStack.open('cli-redrive');
    topic = await stack.createTopic({ partitions: 2 });
    dlqTopic = await stack.createTopic({ partitions: 2 });
    const codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: stack.subject(valueSubject(topic)),
    });
    const encode = (sensor: string, speed: number) =>
      codec.encode({ metric: 'traffic', tags: { sensor }, ts: TS, fields: { speed }, strings: {} });
    letters = [
      {
        dlqPartition: 0,
        reason: 'INVALID_VALUE',
        sourcePartition: 0,
        sourceOffset: 10,
        key: 'traffic|sensor=a',
        value: await encode('a', 1),
      },
      {
        dlqPartition: 1,
        reason: 'TOO_LATE',
        sourcePartition: 1,
        sourceOffset: 20,
        key: 'traffic|sensor=b',
        value: await encode('b', 2),
        headers: { traceparent: 'trace-b' },
      },
      // The first letter again: a replayed worker dead-letters the same source record twice.
      {
        dlqPartition: 0,
        reason: 'INVALID_VALUE',
        sourcePartition: 0,
        sourceOffset: 10,
        key: 'traffic|sensor=a',
        value: await encode('a', 1),
      },
      {
        dlqPartition: 1,
        reason: 'DECODE_ERROR',
        sourcePartition: 0,
        sourceOffset: 11,
        key: 'traffic|sensor=c',
        value: Buffer.from([0, 0, 0, 0, 9, 255]),
      },
      {
        dlqPartition: 0,
        reason: 'TOO_LATE',
        sourcePartition: 1,
        sourceOffset: 21,
        key: 'traffic|sensor=d',
        value: await encode('d', 4),
      },
    ];
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      // One at a time, so DLQ order is the order above.
      for (const letter of letters) {
        await producer.send({
          topic: dlqTopic,
          messages: [
            {
              partition: letter.dlqPartition,
              key: letter.key,
              value: letter.value,
              headers: {
                ...letter.headers,
                [DLQ_HEADERS.reason]: letter.reason,
                [DLQ_HEADERS.detail]: `crafted ${letter.reason}`,
                [DLQ_HEADERS.topic]: topic,
                [DLQ_HEADERS.partition]: String(letter.sourcePartition),
                [DLQ_HEADERS.offset]: String(letter.sourceOffset),
                [DLQ_HEADERS.at]: String(TS),
              },
            },
          ],
        });
      }
    } finally {
      await producer.disconnect();
    }
  }, 60_000);
  afterAll(() => stack.close());

  it('tallies a dry run by reason and publishes nothing', async () => {
    const run = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--reason',
      'INVALID_VALUE',
      'TOO_LATE',
      '--dry-run',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`dry run: redrive from ${dlqTopic}`);
    expect(run.stdout).toMatch(/^DECODE_ERROR\s+1\s+0\s+1$/m);
    expect(run.stdout).toMatch(/^INVALID_VALUE\s+2\s+1\s+1$/m);
    expect(run.stdout).toMatch(/^TOO_LATE\s+2\s+2\s+0$/m);
    expect(run.stdout).toMatch(/^total\s+5\s+3\s+2$/m);
    expect(run.stdout).toContain('skipped: 1 duplicate, 1 not matching --reason');
    expect(await readTopic(stack, topic)).toEqual([]);
  }, 60_000);

  it('republishes the matching records once, original key, bytes and headers', async () => {
    const run = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--reason',
      'INVALID_VALUE',
      '--reason',
      'TOO_LATE',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^total\s+5\s+3\s+2$/m);

    const records = await readTopic(stack, topic);
    const byKey = new Map(records.map((r) => [r.key!.toString(), r]));
    expect([...byKey.keys()].sort()).toEqual([
      'traffic|sensor=a',
      'traffic|sensor=b',
      'traffic|sensor=d',
    ]);
    expect(records).toHaveLength(3);
    for (const [key, record] of byKey) {
      const letter = letters.find((l) => l.key === key)!;
      expect(record.value!.equals(letter.value)).toBe(true);
      const names = Object.keys(record.headers);
      expect(
        names.filter(
          (name) => name.startsWith('tickertape-dlq') || name.startsWith('tickertape-source'),
        ),
      ).toEqual([]);
      expect(record.headers[REDRIVEN_FROM_HEADER]?.toString()).toMatch(
        new RegExp(`^${dlqTopic}/${letter.dlqPartition}/\\d+$`),
      );
    }
    expect(byKey.get('traffic|sensor=b')!.headers.traceparent?.toString()).toBe('trace-b');
  }, 60_000);

  it('sends to another topic when told, at most --max records', async () => {
    const other = await stack.createTopic();
    const run = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--topic',
      other,
      '--max',
      '1',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^total\s+5\s+1\s+4$/m);
    expect(run.stdout).toContain('1 duplicate, 0 not matching --reason, 3 over --max');
    const records = await readTopic(stack, other);
    expect(records.map((r) => r.key!.toString())).toHaveLength(1);
  }, 60_000);

  it('starts every DLQ partition at --from-offset, and ends at once on an empty DLQ', async () => {
    // From offset 1: the duplicate's first copy (offset 0) is not read, so it is not a duplicate.
    const later = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--from-offset',
      '1',
      '--dry-run',
    ]);
    expect(later.code).toBe(0);
    expect(later.stdout).toContain('partition 0 offsets 1..3, partition 1 offsets 1..2');
    expect(later.stdout).toMatch(/^INVALID_VALUE\s+1\s+1\s+0$/m);
    expect(later.stdout).toMatch(/^total\s+3\s+3\s+0$/m);

    const beyond = await runCli(stack, [
      'redrive',
      '--dlq-topic',
      dlqTopic,
      '--from-offset',
      '100',
      '--dry-run',
    ]);
    expect(beyond.stdout).toMatch(/^total\s+0\s+0\s+0$/m);

    const empty = await stack.createTopic();
    const run = await runCli(stack, ['redrive', '--dlq-topic', empty]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^total\s+0\s+0\s+0$/m);
  }, 60_000);
});
