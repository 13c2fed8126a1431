/**
 * A producer in another language: examples/python-producer (confluent-kafka, librdkafka, the
 * registry's AvroSerializer) publishes a fixed tick set to a topic of its own; the real workers
 * roll it up at every level and into the segment store, and `tickertape verify` finds no
 * difference. Its records must be what our SDK would have sent: the same key, the same partition
 * for that key, a value our codec decodes into the same tick.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runProcess, TestStack } from '@tickertape/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readTopic, stackEnv } from '../support/cli.js';
import { Pipeline } from '../support/pipeline.js';
import { testDatabase } from '@tickertape/store/testing';

const exampleDir = fileURLToPath(new URL('../../../../examples/python-producer', import.meta.url));
const PARTITIONS = 4;
const MINUTE = 60_000;

/**
 * Six series — tags with the key's separators and non-ASCII text, so the key's escaping and
 * byte encoding are exercised — one reading every 10 s for six minutes ending a minute ago;
 * two numeric fields, a string field on some readings.
 */
function tickSet(now: number): Tick[] {
  const series: [string, Record<string, string>][] = [
    ['traffic', { sensor: 's1', site: 'north' }],
    ['traffic', { sensor: 's2', site: 'north' }],
    ['traffic', { sensor: 'a:b', site: 'x,y=z' }],
    ['traffic', { site: 'süd', sensor: 'ü|1' }],
    ['weather', { station: 'w\\1' }],
    ['load', {}],
  ];
  const end = Math.floor(now / MINUTE) * MINUTE - MINUTE;
  const ticks: Tick[] = [];
  for (let ts = end - 6 * MINUTE; ts < end; ts += 10_000) {
    series.forEach(([metric, tags], i) => {
      const step = (ts - end) / 10_000;
      ticks.push({
        metric,
        tags,
        ts: ts + i * 7,
        fields: { value: 100 + i * 10 + (step % 13), ratio: (i + 1) / 8 },
        strings: step % 3 === 0 ? { state: step % 2 === 0 ? 'ok' : 'warn' } : {},
        source: 'python-producer',
      });
    });
  }
  return ticks;
}

async function runPython(
  python: string,
  args: string[],
  env: Record<string, string>,
  stdin: string,
) {
  const { code, stdout, stderr } = await runProcess(
    python,
    [`${exampleDir}/producer.py`, ...args],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdin,
    },
  );
  return { code, stderr: stdout + stderr };
}

describe('a Python producer (confluent-kafka AvroSerializer, murmur2_random)', () => {
  let stack: TestStack;
  let pipeline: Pipeline;
  let codec: TickCodec;
  let ticks: Tick[];
  let topic: string;

  beforeAll(async () => {
    stack = await TestStack.open('python-producer');
    topic = await stack.createTopic({ partitions: PARTITIONS });
    pipeline = new Pipeline(stack, {
      topic,
      dlqTopic: await stack.createTopic(),
      database: testDatabase(stack).databaseName,
    });
    stack.subject(valueSubject(topic));
    // The Python side only reads the subject's latest version: something must register it, as
    // the workers and `tickertape publish` do.
    codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: valueSubject(topic),
    });
    ticks = tickSet(Date.now());
  }, 60_000);

  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  it('publishes records our SDK would have sent, and every store gets them exactly', async () => {
    // A fresh machine installs the venv here (about 30 s from PyPI); later runs reuse it.
    const { stdout } = await promisify(execFile)('bash', [`${exampleDir}/install.sh`], {
      timeout: 300_000,
    });
    const python = stdout.trim();
    const run = await runPython(
      python,
      ['--topic', topic],
      stackEnv(stack),
      ticks.map((tick) => JSON.stringify(tick)).join('\n'),
    );
    expect(run.stderr).toContain(`${ticks.length} ticks published to ${topic}`);
    expect(run.code).toBe(0);

    // Key, partition and value, record by record, against our own SDK's choices.
    const records = await readTopic(stack, topic);
    expect(records).toHaveLength(ticks.length);
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from(
      { length: PARTITIONS },
      (_, partitionId): PartitionMetadata => ({
        partitionId,
        leader: 0,
        partitionErrorCode: 0,
        replicas: [0],
        isr: [0],
      }),
    );
    const decoded = await Promise.all(
      records.map(async (record) => ({ record, tick: await codec.decode(record.value!) })),
    );
    for (const { record, tick } of decoded) {
      const key = seriesKey(tick.metric, tick.tags);
      expect(record.key?.toString('utf8')).toBe(key);
      expect(record.partition).toBe(
        partitioner({ topic, partitionMetadata, message: { key, value: null } }),
      );
    }
    const byTime = (a: Tick, b: Tick) =>
      a.ts - b.ts || seriesKey(a.metric, a.tags).localeCompare(seriesKey(b.metric, b.tags));
    expect(decoded.map(({ tick }) => tick).sort(byTime)).toEqual([...ticks].sort(byTime));
    // The six series spread over more than one partition, so the partitioner was exercised.
    expect(new Set(records.map((r) => r.partition)).size).toBeGreaterThan(1);

    await pipeline.start();
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    expect(report.tally.valid).toBe(ticks.length);
    const counts = Object.fromEntries(
      report.stores.map((s) => [s.store, [s.expected, s.stored, s.differences]]),
    );
    // Every series in every minute, hour and day its readings fall in; every reading a raw point.
    const distinct = (slotMs: number) =>
      new Set(ticks.map((t) => `${seriesKey(t.metric, t.tags)}@${Math.floor(t.ts / slotMs)}`)).size;
    expect(counts).toEqual({
      'dead-letters': [0, 0, 0],
      minute: [distinct(MINUTE), distinct(MINUTE), 0],
      hour: [distinct(60 * MINUTE), distinct(60 * MINUTE), 0],
      day: [distinct(1440 * MINUTE), distinct(1440 * MINUTE), 0],
      segments: [ticks.length, ticks.length, 0],
    });
  }, 420_000);
});
