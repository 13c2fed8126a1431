import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  LEVELS,
  isSlotFinal,
  partitionOf,
  partitionsAhead,
  type FoldInput,
} from '@tickertape/buckets';
import { createLogger } from '@tickertape/logger';
import { storesOf } from '@tickertape/store';
import { SegmentWriter } from '@tickertape/segments';
import { TestStack, waitFor } from '@tickertape/testing';
import type { Db, Document } from 'mongodb';
import { parseSchedulerEnv, type SchedulerEnv } from '../../src/env.js';
import { startScheduler, type SchedulerHandle, type SchedulerHooks } from '../../src/scheduler.js';
import { testDatabase } from '@tickertape/store/testing';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('scheduler on the real stack', () => {
  let stack: TestStack;
  const running: SchedulerHandle[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('scheduler');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });
  afterAll(() => stack.close());

  function env(db: Db, prefix: string, overrides: Record<string, string> = {}): SchedulerEnv {
    return parseSchedulerEnv({
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      // No such topic unless a test makes it: finality then follows the clock alone.
      TOPIC: stack.name('no-topic'),
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      MONGODB_DATABASE: db.databaseName,
      BULLMQ_PREFIX: prefix,
      SCHEDULER_QUEUE: stack.name('queue'),
      ENSURE_PARTITIONS_EVERY_MS: '300',
      FINALIZE_EVERY_MS: '300',
      RETENTION_EVERY_MS: '300',
      MAX_LATENESS_MS: String(5 * MINUTE),
      FINALITY_GRACE_MS: String(5 * MINUTE),
      HTTP_PORT: '0',
      LOG_LEVEL: 'warn',
      ...overrides,
    });
  }

  async function start(config: SchedulerEnv, hooks: SchedulerHooks): Promise<SchedulerHandle> {
    const scheduler = await startScheduler(
      config,
      createLogger({ name: 'test-scheduler', level: config.LOG_LEVEL }),
      hooks,
    );
    running.push(scheduler);
    return scheduler;
  }

  it('creates partitions ahead, flips finality on the clock alone, and drops only what expired', async () => {
    const db = testDatabase(stack);
    let now = at('2026-11-21T12:00:00Z');
    // Already there: an expired minute partition, one inside retention, an expired hour partition.
    for (const [level, ts] of [
      ['minute', '2026-11-01T00:00:00Z'],
      ['minute', '2026-11-18T00:00:00Z'],
      ['hour', '2026-06-01T00:00:00Z'],
    ] as const) {
      await (await storesOf(db)).rollups.ensurePartition(partitionOf(level, at(ts)));
    }
    await start(env(db, stack.redisPrefix()), { now: () => now });

    const ahead = LEVELS.flatMap((level) => partitionsAhead(level, now, 2)).map((r) => r.name);
    let names: string[] = [];
    const present = async () =>
      (names = (await (await storesOf(db)).rollups.listPartitions()).map((p) => p.name));
    await waitFor(
      async () => ahead.every((name) => names.includes(name)) || (await present(), false),
      {
        description: 'partitions of every level, two ahead',
        timeoutMs: 20_000,
      },
    );
    for (const name of ahead) {
      const indexes = (await db.collection(name).listIndexes().toArray()).map(
        (i: { name?: unknown }) => String(i.name),
      );
      expect(indexes).toEqual(expect.arrayContaining(['start_1', 'metric_1_start_1_series_1']));
    }

    // Finality: the slot that ended a minute ago is not final; five minutes later it is, with no tick.
    const slot = at('2026-11-21T11:58:00Z');
    await waitFor(
      async () =>
        (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute !== undefined,
      {
        description: 'a minute watermark',
      },
    );
    expect(
      isSlotFinal(
        'minute',
        slot,
        (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute!,
      ),
    ).toBe(false);
    now += 5 * MINUTE;
    await waitFor(
      async () =>
        isSlotFinal(
          'minute',
          slot,
          (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute!,
        ),
      {
        description: 'the slot to become final',
        timeoutMs: 20_000,
      },
    );

    // Retention (defaults: minute 7 days, hour 90 days) dropped the two expired partitions only.
    await waitFor(async () => !(await present()).includes('rollup_minute_20261101'), {
      description: 'the expired minute partition to go',
    });
    await waitFor(async () => !(await present()).includes('rollup_hour_202606'), {
      description: 'the expired hour partition to go',
    });
    expect(names).toEqual(expect.arrayContaining(['rollup_minute_20261118', ...ahead]));
  }, 90_000);

  it("holds a level's finality back until its consumer group has read past the slot", async () => {
    const db = testDatabase(stack);
    const topic = await stack.createTopic({
      partitions: 1,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    const group = stack.name('minute-group');
    const producer = stack.kafka.producer();
    await producer.connect();
    const [sent] = await producer.send({ topic, messages: [{ value: 'a record' }] });
    await producer.disconnect();
    const admin = await stack.admin();
    const [record] = await admin.fetchTopicOffsets(topic);
    expect(record?.high).toBe('1');
    // The group has committed nothing of the partition yet: a member that never got going.
    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '0' }] });
    expect(sent?.errorCode).toBe(0);

    // The clock says ten minutes later; a minute slot is final one grace after its end.
    const appended = Date.now();
    const now = appended + 10 * MINUTE;
    const config = env(db, stack.redisPrefix(), {
      TOPIC: topic,
      FINALITY_GROUPS: `minute=${group}`,
      MAX_LATENESS_MS: String(MINUTE),
      FINALITY_GRACE_MS: String(MINUTE),
    });
    await start(config, { now: () => now });
    await waitFor(
      async () =>
        (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute !== undefined,
      {
        description: 'a minute watermark',
      },
    );
    const held = (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute!;
    // Unread: a record appended at `appended` may carry a tick one grace older, so nothing from
    // that minute on is final, whatever the clock says; the hour level (no group) follows it.
    expect(held).toBeLessThanOrEqual(appended - MINUTE);
    expect(held).toBeGreaterThan(appended - 3 * MINUTE);
    expect((await (await storesOf(db)).rollups.readWatermarks()).finalBefore.hour).toBe(
      Math.floor((now - MINUTE) / HOUR) * HOUR,
    );

    await admin.setOffsets({ groupId: group, topic, partitions: [{ partition: 0, offset: '1' }] });
    const wall = Math.floor((now - MINUTE) / MINUTE) * MINUTE;
    await waitFor(
      async () => (await (await storesOf(db)).rollups.readWatermarks()).finalBefore.minute === wall,
      {
        description: 'the watermark to reach the clock once the group has read the record',
        timeoutMs: 20_000,
      },
    );
  }, 60_000);

  it('drops segment days past retention and the lateness bound, keeps the rest, and a dry run drops nothing', async () => {
    const db = testDatabase(stack);
    const now = at('2026-11-21T12:00:00Z');
    // One series with a point at noon on each of these days: one segment collection per day.
    const days = ['2026-11-01', '2026-11-13', '2026-11-15', '2026-11-20', '2026-11-21'];
    const series = 'speed|sensor=s1';
    const ticks = days.map((day, offset): FoldInput => ({
      seriesKey: series,
      metric: 'speed',
      tags: { sensor: 's1' },
      ts: at(`${day}T11:00:00Z`),
      fields: { speed: 40 + offset },
      strings: {},
      kafkaPartition: 0,
      offset,
    }));
    await new SegmentWriter((await storesOf(db)).segments, {
      maxPoints: 100,
      writeOnlyOnChange: new Set(),
    }).apply(ticks);
    const all = ['20261101', '20261113', '20261115', '20261120', '20261121'];
    expect(await (await storesOf(db)).segments.listDays()).toEqual(all);

    /** Runs a scheduler until its first retention run, returns that run's segment result, stops it. */
    async function retentionRun(overrides: Record<string, string>) {
      let result: Record<string, unknown> | undefined;
      const scheduler = await start(env(db, stack.redisPrefix(), overrides), {
        now: () => now,
        onJobDone: (job, r) => {
          if (job.name === 'retention') result ??= r;
        },
      });
      const run = await waitFor(() => result, {
        description: 'a retention run',
        timeoutMs: 20_000,
      });
      const metrics = await scheduler.metrics.registry.metrics();
      await Promise.all(running.splice(0).map((s) => s.stop()));
      return {
        ...(run as { dryRun: boolean; segments: { wouldDrop: string[]; dropped: string[] } }),
        metrics,
      };
    }

    // Dry run, default 7-day retention: the two days that ended more than 7 days ago are listed, none goes.
    const dry = await retentionRun({ RETENTION_DRY_RUN: 'true' });
    expect(dry.dryRun).toBe(true);
    expect(dry.segments).toEqual({
      wouldDrop: ['segments_20261101', 'segments_20261113'],
      dropped: [],
    });
    expect(dry.metrics).toMatch(/^tickertape_segment_days_expired 2$/m);
    expect(dry.metrics).toMatch(/^tickertape_segment_days_dropped_total 0$/m);
    expect(await (await storesOf(db)).segments.listDays()).toEqual(all);

    // For real: those two go; 20261115 (ended 5.5 days ago) and the two recent days stay.
    const real = await retentionRun({});
    expect(real.segments).toEqual({
      wouldDrop: ['segments_20261101', 'segments_20261113'],
      dropped: ['segments_20261101', 'segments_20261113'],
    });
    expect(real.metrics).toMatch(/^tickertape_segment_days_dropped_total 2$/m);
    expect(real.metrics).toMatch(/^tickertape_segment_days_expired 0$/m);
    expect(await (await storesOf(db)).segments.listDays()).toEqual([
      '20261115',
      '20261120',
      '20261121',
    ]);

    // A retention shorter than the lateness bound: yesterday ended 12 h ago, a late tick (18 h
    // here) could still land there, so it stays while 20261115 goes.
    const short = await retentionRun({
      RETENTION_SEGMENTS_MS: String(HOUR),
      MAX_LATENESS_MS: String(18 * HOUR),
      FINALITY_GRACE_MS: String(18 * HOUR),
    });
    expect(short.segments.dropped).toEqual(['segments_20261115']);
    expect(await (await storesOf(db)).segments.listDays()).toEqual(['20261120', '20261121']);

    // Readers see the dropped days as gone: the oldest kept point has no neighbour before it.
    const read = await (
      await storesOf(db)
    ).segments.readPoints(
      { series, fromMs: at('2026-11-20T00:00:00Z'), toMs: at('2026-11-21T00:00:00Z') },
      { maxDocuments: 100 },
    );
    expect(read.points).toEqual([{ t: at('2026-11-20T11:00:00Z'), v: { speed: 43 } }]);
    expect(read.before).toBeNull();
    expect(read.after).toEqual({ t: at('2026-11-21T11:00:00Z'), v: { speed: 44 } });
  }, 90_000);

  it('preallocates shells for the next slot of recently active series, on the levels configured', async () => {
    const db = testDatabase(stack);
    const now = at('2026-11-21T12:00:30Z');
    await (await storesOf(db)).rollups.writer('minute').apply([
      {
        seriesKey: 'speed|sensor=s1',
        metric: 'speed',
        tags: { sensor: 's1' },
        ts: now - 20_000,
        fields: { speed: 50 },
        strings: {},
        kafkaPartition: 0,
        offset: 0,
      },
    ]);
    await start(env(db, stack.redisPrefix(), { SHELL_LEVELS: 'minute', SHELLS_EVERY_MS: '300' }), {
      now: () => now,
    });
    const next = await waitFor(
      () =>
        db
          .collection<Document & { _id: string }>('rollup_minute_20261121')
          .findOne({ _id: 'speed|sensor=s1:202611211201' }),
      { description: 'the shell of the next minute', timeoutMs: 20_000 },
    );
    expect(next).toMatchObject({ n: 0, series: 'speed|sensor=s1', f: { speed: { n: 0, sum: 0 } } });
    expect(Object.keys((next.f as { speed: { sec: object } }).speed.sec)).toHaveLength(60);
    // Hour shells are off in this configuration.
    expect(await db.collection('rollup_hour_202611').countDocuments({ n: 0 })).toBe(0);
  }, 60_000);

  it('serves /health, /metrics and a read-only Bull Board of its jobs', async () => {
    const db = testDatabase(stack);
    const scheduler = await start(env(db, stack.redisPrefix()), {
      now: () => at('2026-11-21T12:00:00Z'),
    });
    const base = `http://127.0.0.1:${scheduler.port}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    await waitFor(
      async () =>
        (await (await fetch(`${base}/metrics`)).text()).includes(
          'tickertape_scheduler_jobs_total{job_name="finalize",outcome="ok"}',
        ),
      {
        description: 'a finalize run in the metrics',
      },
    );
    const page = await fetch(`${base}/admin/queues`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const api = (await (await fetch(`${base}/admin/queues/api/queues`)).json()) as {
      queues: { name: string; readOnlyMode: boolean }[];
    };
    expect(api.queues.map((q) => q.name)).toEqual([scheduler.queue.name]);
    expect(api.queues[0]?.readOnlyMode).toBe(true);
  }, 60_000);

  it('two replicas run each scheduled job exactly once per tick of its schedule', async () => {
    const db = testDatabase(stack);
    const config = env(db, stack.redisPrefix());
    const runs: { id: string; replica: number }[] = [];
    const hooks = (replica: number): SchedulerHooks => ({
      now: () => at('2026-11-21T12:00:00Z'),
      onJobDone: (job) => {
        if (job.name === 'finalize') runs.push({ id: String(job.id), replica });
      },
    });
    await Promise.all([start(config, hooks(1)), start(config, hooks(2))]);
    await waitFor(() => runs.length >= 8, { description: '8 finalize runs', timeoutMs: 30_000 });

    const ids = runs.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    // One job per tick: BullMQ names each scheduled job after its due time, so distinct ids are distinct ticks.
    const ticks = ids.map((id) => Number(id.split(':').pop()));
    expect(ticks.every((t) => Number.isFinite(t))).toBe(true);
    expect(new Set(ticks).size).toBe(ticks.length);
  }, 60_000);
});
