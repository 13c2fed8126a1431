/**
 * `tickertape verify` against the real workers (run as processes) on the real stack: a clean
 * run reports nothing; tampering with the database — one field changed, one bucket deleted, one
 * tick applied twice, one raw point changed — and losing the dead letters make it report exactly
 * those differences.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf, guardedUpdate } from '@tickertape/store';
import { foldBatch, partitionOf, type FoldInput } from '@tickertape/buckets';
import { badInputs, type BadInput } from '@tickertape/producer';
import { segmentCollection } from '@tickertape/segments';
import { spawnService, TestStack, type ServiceProcess } from '@tickertape/testing';
import { seriesKey, TickCodec, valueSubject, type Tick } from '@tickertape/tick';
import type { VerifyReport } from '@tickertape/verify';
import { Partitioners } from 'kafkajs';
import type { Db, Document } from 'mongodb';
import { fileURLToPath } from 'node:url';
import { runCli, stackEnv } from '../support/cli.js';
import { testDatabase } from '@tickertape/store/testing';

const workerDir = fileURLToPath(new URL('../../../rollup-worker', import.meta.url));
const STORES = ['minute', 'hour', 'day', 'segments'] as const;

describe('tickertape verify', () => {
  let stack: TestStack;
  let topic: string;
  let dlqTopic: string;
  let db: Db;
  let codec: TickCodec;
  let ticks: Tick[];
  let bad: BadInput[];
  const workers: ServiceProcess[] = [];
  const groups = Object.fromEntries(STORES.map((store) => [store, `verify-${store}`])) as Record<
    (typeof STORES)[number],
    string
  >;

  const verifyArgs = (extra: string[] = []) => [
    'verify',
    '--topic',
    topic,
    '--dlq-topic',
    dlqTopic,
    '--database',
    db.databaseName,
    ...STORES.flatMap((store) => ['--group', `${store}=${groups[store]}`]),
    '--format',
    'json',
    ...extra,
  ];
  const runVerify = async (extra: string[] = []) => {
    const run = await runCli(stack, verifyArgs(extra));
    return { code: run.code, stderr: run.stderr, report: JSON.parse(run.stdout) as VerifyReport };
  };

  beforeAll(async () => {
    stack = await TestStack.open('cli-verify');
    topic = await stack.createTopic({ partitions: 3 });
    dlqTopic = await stack.createTopic();
    db = testDatabase(stack);
    stack.subject(valueSubject(topic));
    groups.minute = stack.name('minute');
    groups.hour = stack.name('hour');
    groups.day = stack.name('day');
    groups.segments = stack.name('segments');
    codec = await TickCodec.register(stack.registry, {
      registry: { url: stack.env.SCHEMA_REGISTRY_URL },
      version: 2,
      subject: valueSubject(topic),
    });

    // Ten sensors, a reading every 2 s for four minutes, ending now; strings on some.
    const now = Date.now();
    const good: Tick[] = [];
    for (let i = 0; i < 10; i++) {
      for (let ts = now - 240_000 + i * 97; ts < now; ts += 2000) {
        good.push({
          metric: 'traffic',
          tags: { sensor: `s${i}` },
          ts,
          fields: { speed: 30 + ((ts / 1000) % 40), travel_time: 100 + i },
          strings: ts % 3 === 0 ? { conditions: 'rain' } : {},
        });
      }
    }
    const producer = stack.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    bad = badInputs(codec.schemaId, now, { sensor: 's0' });
    const key = (tick: Tick) => seriesKey(tick.metric, tick.tags);
    await producer.send({
      topic,
      messages: [
        ...(await Promise.all(
          good.map(async (tick) => ({ key: key(tick), value: await codec.encode(tick) })),
        )),
        ...bad.map((input) => ({
          key: seriesKey('traffic', { sensor: 's0' }),
          value: input.value,
        })),
      ],
    });
    await producer.disconnect();
    ticks = good;

    for (const store of STORES) {
      workers.push(
        spawnService(workerDir, {
          ...stackEnv(stack),
          MONGODB_DATABASE: db.databaseName,
          ROLLUP_LEVEL: store,
          TOPIC: topic,
          DLQ_TOPIC: dlqTopic,
          GROUP_ID: groups[store],
          HTTP_PORT: '0',
          FLUSH_MAX_WAIT_MS: '100',
          FLUSH_MIN_BYTES: '1',
          FLUSH_MAX_TICKS: '300',
          FRESHNESS_BUDGET_MS: '300',
          KAFKA_SESSION_TIMEOUT_MS: '6000',
          SEGMENT_MAX_POINTS: '50',
        }),
      );
    }
  });

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));
    await stack.close();
  });

  it('finds nothing to report once the workers have written every record', async () => {
    const { code, report } = await runVerify(['--wait-ms', '90000']);
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    // 10 sensors × 120 readings, plus the bad inputs that decode: too late and too far ahead.
    expect(report.tally.valid).toBe(1202);
    expect(report.tally.dropped).toEqual({ TOO_LATE: 1, TIMESTAMP_OUT_OF_RANGE: 1 });
    expect(report.stores.map((s) => [s.store, s.differences])).toEqual([
      ['dead-letters', 0],
      ['minute', 0],
      ['hour', 0],
      ['day', 0],
      ['segments', 0],
    ]);
    expect(report.stores.find((s) => s.store === 'minute')?.expected).toBeGreaterThanOrEqual(40);
    expect(report.stores.find((s) => s.store === 'segments')?.expected).toBe(1200);
  }, 150_000);

  it('reports every bad record whose dead letter is missing, time verdicts included', async () => {
    const emptyDlq = await stack.createTopic();
    const run = await runCli(
      stack,
      verifyArgs(['--stores', 'minute']).map((arg) => (arg === dlqTopic ? emptyDlq : arg)),
    );
    const report = JSON.parse(run.stdout) as VerifyReport;
    expect(run.code).toBe(1);
    // Every bad record must be dead-lettered, the two time verdicts included: the checker
    // judges them itself against each record's timestamp, so the buckets stay as they are.
    expect(
      report.differences
        .filter((d) => d.store === 'dead-letters')
        .map((d) => [d.kind, d.expected])
        .sort(),
    ).toEqual(bad.map((b) => ['missing', b.reason]).sort());
    expect(report.differences).toHaveLength(bad.length);
  }, 120_000);

  it('reports exactly the tampering: a changed field, a deleted bucket, a tick applied twice, a changed raw point', async () => {
    const first = async (name: string) =>
      (
        await db
          .collection<Document & { _id: string }>(name)
          .find({ n: { $gt: 1 } })
          .sort({ _id: 1 })
          .limit(1)
          .toArray()
      )[0]!;
    const now = ticks[ticks.length - 1]!.ts;

    // 1. One field of one minute bucket.
    const minuteName = partitionOf('minute', now).name;
    const minute = await first(minuteName);
    const max = (minute.f as { speed: { max: number } }).speed.max;
    await db
      .collection<Document & { _id: string }>(minuteName)
      .updateOne({ _id: minute._id }, { $set: { 'f.speed.max': max + 1000 } });

    // 2. One hour bucket deleted.
    const hourName = partitionOf('hour', now).name;
    const hour = await first(hourName);
    await db.collection<Document & { _id: string }>(hourName).deleteOne({ _id: hour._id });

    // 3. One tick applied twice to a day bucket: the workers' own update, without its guard.
    const dayName = partitionOf('day', now).name;
    const day = await first(dayName);
    const last = (day.f as { speed: { last: { t: number; o: number } } }).speed.last;
    const tick = ticks.find((t) => seriesKey(t.metric, t.tags) === day.series && t.ts === last.t)!;
    const partition = Number(Object.keys(day.ap as object)[0]);
    const input: FoldInput = {
      seriesKey: day.series as string,
      metric: tick.metric,
      tags: tick.tags,
      ts: tick.ts,
      fields: tick.fields,
      strings: tick.strings,
      kafkaPartition: partition,
      offset: last.o,
    };
    const [delta] = foldBatch('day', [input]).values();
    await db
      .collection<Document & { _id: string }>(dayName)
      .updateOne({ _id: day._id }, guardedUpdate(delta!).update);

    // 4. One raw point's value changed.
    const [dayStamp] = await (await storesOf(db)).segments.listDays();
    const segments = db.collection<Document & { _id: string }>(segmentCollection(dayStamp!));
    const segment = (
      await segments
        .find({ n: { $gt: 1 } })
        .sort({ _id: 1 })
        .limit(1)
        .toArray()
    )[0]!;
    const point = {
      t: (segment.t as number[])[0]!,
      v: (segment.v as Record<string, number>[])[0]!,
    };
    await segments.updateOne({ _id: segment._id }, { $set: { 'v.0.speed': -1 } });

    const { code, report } = await runVerify(['--limit', '100']);
    expect(code).toBe(1);
    const hourSlot = String(new Date(tick.ts).getUTCHours());
    const twice = (path: string) => ({ store: 'day', kind: 'wrong', id: day._id, path });
    expect(report.differences.map(({ expected: _e, actual: _a, ...where }) => where)).toEqual([
      { store: 'minute', kind: 'wrong', id: minute._id, path: 'f.speed.max' },
      { store: 'hour', kind: 'missing', id: hour._id },
      twice(`f.speed.h.${hourSlot}.n`),
      twice(`f.speed.h.${hourSlot}.sq`),
      twice(`f.speed.h.${hourSlot}.sum`),
      twice('f.speed.n'),
      twice('f.speed.sq'),
      // The ticks Σx² covers: the tick applied twice is counted twice there too.
      twice('f.speed.sqn'),
      twice('f.speed.sum'),
      twice(`f.travel_time.h.${hourSlot}.n`),
      twice(`f.travel_time.h.${hourSlot}.sq`),
      twice(`f.travel_time.h.${hourSlot}.sum`),
      twice('f.travel_time.n'),
      twice('f.travel_time.sq'),
      twice('f.travel_time.sqn'),
      twice('f.travel_time.sum'),
      twice('n'),
      {
        store: 'segments',
        kind: 'wrong',
        id: `${segment.series as string}@${new Date(point.t).toISOString()}`,
        path: 'v',
      },
    ]);
    expect(report.differences[0]).toMatchObject({ expected: max, actual: max + 1000 });
    expect(report.differences.find((d) => d.path === 'n')).toMatchObject({
      expected: day.n as number,
      actual: (day.n as number) + 1,
    });
    expect(report.differences.at(-1)).toMatchObject({
      expected: point.v,
      actual: { ...point.v, speed: -1 },
    });
  }, 150_000);
});
