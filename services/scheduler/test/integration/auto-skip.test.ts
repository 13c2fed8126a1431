/**
 * The minute level skipped by default for a sparse metric, on the real stack: the scheduler's
 * `auto-skip` job measures the metric in the hour buckets and records a span in the level policy,
 * the workers' own writers leave the span's minutes out and keep the others, readers still answer
 * a minute-step read from the hour buckets exactly, and the checker's reference fold expects
 * exactly what is stored — before, across and after the switch back when the rate rises, with
 * every flush redelivered once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  LEVELS,
  POLICY_REFRESH_MS,
  autoSkipBoundary,
  partitionOf,
  type FoldInput,
  type Level,
} from '@tickertape/buckets';
import { createLogger } from '@tickertape/logger';
import { RollupReader } from '@tickertape/query';
import { storesOf, type RollupStore } from '@tickertape/store';
import { testDatabase } from '@tickertape/store/testing';
import { TestStack, waitFor } from '@tickertape/testing';
import { seriesKey } from '@tickertape/tick';
import {
  WHOLE_TIME,
  compareBuckets,
  expectedBuckets,
  storedBuckets,
  type TruthTick,
} from '@tickertape/verify';
import type { Db } from 'mongodb';
import { parseSchedulerEnv } from '../../src/env.js';
import { startScheduler, type SchedulerHandle } from '../../src/scheduler.js';

const S = 1000;
const M = 60_000;
const H = 60 * M;
const H0 = Date.parse('2026-11-21T08:00:00Z');
const METRIC = 'mms.disk';
const HOSTS = ['a', 'b'];
const FUTURE = 5 * M;

describe('the minute level skipped automatically for a sparse metric', () => {
  let stack: TestStack;
  let db: Db;
  let rollups: RollupStore;
  let scheduler: SchedulerHandle;
  let now = H0;
  const ticks: TruthTick[] = [];
  const offsets = new Map<number, number>();

  /** Ticks of every host every `everyMs` over [fromMs, toMs), at second 17 of a slot and after. */
  function produce(fromMs: number, toMs: number, everyMs: number): TruthTick[] {
    const made: TruthTick[] = [];
    for (let t = fromMs + 17 * S; t < toMs; t += everyMs)
      HOSTS.forEach((host, partition) => {
        const offset = offsets.get(partition) ?? 0;
        offsets.set(partition, offset + 1);
        made.push({
          series: seriesKey(METRIC, { host }),
          metric: METRIC,
          tags: { host },
          ts: t + partition * S,
          fields: { used: (t / S) % 97, free: partition },
          strings: {},
          partition,
          offset,
        });
      });
    ticks.push(...made);
    return made;
  }

  const inputs = (batch: readonly TruthTick[]): FoldInput[] =>
    batch.map((tick) => ({
      seriesKey: tick.series,
      metric: tick.metric,
      tags: tick.tags,
      ts: tick.ts,
      fields: tick.fields,
      strings: tick.strings,
      kafkaPartition: tick.partition,
      offset: tick.offset,
    }));

  /**
   * Writes through fresh writers of every level, as workers that re-read the policy (which the
   * span's boundary leaves them time to do), in flushes of 50; `redeliver` applies each flush twice.
   */
  async function write(batch: readonly TruthTick[], redeliver = false): Promise<number> {
    let skipped = 0;
    for (const level of LEVELS) {
      const writer = rollups.writer(level);
      for (let i = 0; i < batch.length; i += 50) {
        const flush = inputs(batch.slice(i, i + 50));
        const stats = await writer.apply(flush);
        if (level === 'minute') skipped += stats.skipped;
        // A redelivered flush: the exactly-once guard leaves it out (the checker below counts).
        if (redeliver) await writer.apply(flush);
      }
    }
    return skipped;
  }

  const results: Record<string, unknown>[] = [];

  /** A scheduler on the test's database and fake clock; `overrides` on top of the env. */
  async function start(overrides: Record<string, string>): Promise<SchedulerHandle> {
    const env = parseSchedulerEnv({
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      TOPIC: stack.name('no-topic'),
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      MONGODB_DATABASE: db.databaseName,
      BULLMQ_PREFIX: stack.redisPrefix(),
      SCHEDULER_QUEUE: stack.name('queue'),
      AUTO_SKIP_EVERY_MS: '300',
      MAX_FUTURE_MS: String(FUTURE),
      SHELL_LEVELS: '',
      HTTP_PORT: '0',
      LOG_LEVEL: 'warn',
      ...overrides,
    });
    return startScheduler(env, createLogger({ name: 'test-scheduler', level: 'warn' }), {
      now: () => now,
      onJobDone: (job, result) => {
        if (job.name === 'auto-skip') results.push(result);
      },
    });
  }

  beforeAll(async () => {
    stack = await TestStack.open('scheduler-auto-skip');
    db = testDatabase(stack);
    rollups = (await storesOf(db)).rollups;
    scheduler = await start({});
  }, 60_000);

  afterAll(async () => {
    await scheduler?.stop();
    await stack.close();
  });

  /**
   * Moves the scheduler's clock and waits for two auto-skip runs (the second began after the move):
   * the changes of every run since, and how many metrics the last one left skipped.
   */
  async function jobAt(t: number): Promise<{ changes: unknown[]; skipping: unknown }> {
    now = t;
    const before = results.length;
    await waitFor(() => results.length >= before + 2, {
      description: 'an auto-skip run at the new time',
    });
    const since = results.slice(before);
    return {
      changes: since.flatMap((result) => result.changes as unknown[]),
      skipping: since[since.length - 1]!.skipping,
    };
  }

  const minuteStarts = async (): Promise<number[]> =>
    (
      await db
        .collection<{ start: Date; n: number }>(partitionOf('minute', H0).name)
        .find({ metric: METRIC, n: { $gt: 0 }, 'tags.host': 'a' })
        .toArray()
    )
      .map((doc) => doc.start.getTime())
      .sort((a, b) => a - b);

  let skipFrom = 0;
  let keepFrom = 0;

  it('keeps the minute level of a new metric, then skips it from a minute every writer knows of', async () => {
    expect(await write(produce(H0, H0 + H, M))).toBe(0);
    const result = await jobAt(H0 + H + 30 * S);
    skipFrom = autoSkipBoundary(H0 + H + 30 * S, FUTURE, POLICY_REFRESH_MS);
    expect(skipFrom).toBe(H0 + H + 7 * M);
    expect(result).toMatchObject({
      changes: [
        { metric: METRIC, change: 'skip', perMinute: 1, from: new Date(skipFrom).toISOString() },
      ],
      skipping: 1,
    });
    const policy = await rollups.readLevelPolicy();
    expect(policy.autoSkips()).toEqual([{ metric: METRIC, fromMs: skipFrom }]);
    expect(policy.mode('minute', METRIC)).toBe('skip');
    const metrics = await scheduler.metrics.registry.metrics();
    expect(metrics).toMatch(/^tickertape_level_auto_skipped_metrics\{level="minute"\} 1$/m);
    expect(metrics).toMatch(
      /^tickertape_level_auto_changes_total\{level="minute",change="skip"\} 1$/m,
    );
  });

  it('writes no minute bucket of the span, and the hour and day levels all of it', async () => {
    const sparse = produce(H0 + H, H0 + 3 * H, M);
    const skipped = await write(sparse, true);
    expect(skipped).toBe(sparse.filter((tick) => tick.ts >= skipFrom).length);
    // Still sparse: the span stays open.
    expect(await jobAt(H0 + 3 * H + 30 * S)).toMatchObject({ changes: [], skipping: 1 });
    const starts = await minuteStarts();
    expect(starts).toHaveLength(67);
    expect(starts[starts.length - 1]).toBe(skipFrom - M);
  });

  it('writes the minute level again when the rate rises, with nothing lost or counted twice', async () => {
    await write(produce(H0 + 3 * H, H0 + 4 * H, 10 * S), true);
    const result = await jobAt(H0 + 4 * H + 30 * S);
    keepFrom = H0 + 4 * H + 7 * M;
    expect(result).toMatchObject({
      changes: [
        // One tick per host every 10 s from second 17: 359 an hour each.
        {
          metric: METRIC,
          change: 'keep',
          perMinute: expect.closeTo(6, 1),
          from: new Date(keepFrom).toISOString(),
        },
      ],
      skipping: 0,
    });
    expect((await rollups.readLevelPolicy()).autoSkips()).toEqual([
      { metric: METRIC, fromMs: skipFrom, untilMs: keepFrom },
    ]);
    const dense = produce(H0 + 4 * H, H0 + 4 * H + 30 * M, 10 * S);
    const skipped = await write(dense, true);
    expect(skipped).toBe(dense.filter((tick) => tick.ts < keepFrom).length);
    const starts = await minuteStarts();
    expect(starts.filter((t) => t >= skipFrom && t < keepFrom)).toEqual([]);
    expect(starts.filter((t) => t >= keepFrom)).toHaveLength(23);
    expect(await scheduler.metrics.registry.metrics()).toMatch(
      /^tickertape_level_auto_changes_total\{level="minute",change="keep"\} 1$/m,
    );
  });

  it('the checker expects exactly what every level stores', async () => {
    const policy = await rollups.readLevelPolicy();
    for (const level of LEVELS as readonly Level[]) {
      const want = expectedBuckets(level, ticks, policy);
      const have = await storedBuckets(rollups, level, WHOLE_TIME);
      expect(compareBuckets(level, want, have)).toEqual([]);
      expect([...have.values()].filter((bucket) => bucket.n !== 0)).toHaveLength(want.size);
    }
  });

  it('answers a minute-step read from the hour buckets, exact for every minute', async () => {
    const reader = new RollupReader({ rollups }, { now: () => H0 + 5 * H });
    const series = seriesKey(METRIC, { host: 'a' });
    const read = await reader.stepped({
      series,
      field: 'used',
      fromMs: H0,
      toMs: H0 + 4 * H + 30 * M,
      stepMs: M,
    });
    expect(read.resolution.source).toEqual({ level: 'hour', detail: 'sub' });
    const folded = new Map<number, { n: number; sum: number; min: number; max: number }>();
    for (const tick of ticks.filter((t) => t.series === series)) {
      const t = Math.floor(tick.ts / M) * M;
      const v = tick.fields.used!;
      const into = folded.get(t) ?? { n: 0, sum: 0, min: Infinity, max: -Infinity };
      folded.set(t, {
        n: into.n + 1,
        sum: into.sum + v,
        min: Math.min(into.min, v),
        max: Math.max(into.max, v),
      });
    }
    const points = read.points.filter((p) => p.n !== 0);
    expect(points).toHaveLength(folded.size);
    for (const p of points) {
      const want = folded.get(p.t)!;
      expect([p.t, p.n, p.min, p.max]).toEqual([p.t, want.n, want.min, want.max]);
      expect(p.sum).toBeCloseTo(want.sum, 9);
    }
    expect(read.gaps).toEqual([]);
  });

  it("leaves a metric the operator pinned alone until it is handed back, and closes a pinned metric's span opened in a race", async () => {
    const pinned = 'mms.pinned';
    const raced = 'mms.raced';
    await rollups.changePins({ kind: 'pin', metrics: [pinned, raced], untilMs: now }, now);
    // The job's write racing the operator's: a pinned metric's span left open (no tick measured).
    await db
      .collection<{ _id: string; auto: { metric: string; from: Date }[] }>('level_policy')
      .updateOne(
        { _id: 'minute' },
        { $push: { auto: { metric: raced, from: new Date(H0 + 4 * H + M) } } },
      );
    // As sparse as the metric the rule skipped above: one tick a minute over the last whole hour.
    await rollups.writer('hour').apply(
      Array.from({ length: 60 }, (_, i) => ({
        seriesKey: seriesKey(pinned, { host: 'a' }),
        metric: pinned,
        tags: { host: 'a' },
        ts: H0 + 3 * H + i * M + 5 * S,
        fields: { used: i },
        strings: {},
        kafkaPartition: 7,
        offset: i,
      })),
    );
    const boundary = autoSkipBoundary(now, FUTURE, POLICY_REFRESH_MS);
    expect(await jobAt(now)).toMatchObject({ skipping: 0 });
    let policy = await rollups.readLevelPolicy();
    expect(policy.autoSkips().filter(({ metric }) => metric !== METRIC)).toEqual([
      { metric: raced, fromMs: H0 + 4 * H + M, untilMs: boundary },
    ]);
    expect(policy.pinnedMetrics()).toEqual([pinned, raced]);

    // Handed back (tickertape levels auto minute): the next run skips it as it would any.
    await rollups.changePins({ kind: 'unpin', metrics: [pinned] }, now);
    expect(await jobAt(now)).toMatchObject({
      changes: [{ metric: pinned, change: 'skip', perMinute: 1 }],
      skipping: 1,
    });
    policy = await rollups.readLevelPolicy();
    expect(policy.autoSkips().filter(({ metric }) => metric === pinned)).toEqual([
      { metric: pinned, fromMs: boundary },
    ]);
  });

  it('writes every skipped metric again when the rule is turned off', async () => {
    await rollups.changeAutoSkip({ kind: 'skip', metric: 'mms.other', fromMs: H0 + 5 * H }, now);
    await scheduler.stop();
    scheduler = await start({ AUTO_SKIP_MINUTE: 'false' });
    const result = await jobAt(H0 + 5 * H + 30 * S);
    const until = H0 + 5 * H + 7 * M;
    expect(result).toMatchObject({
      changes: ['mms.other', 'mms.pinned'].map((metric) => ({
        metric,
        change: 'keep',
        perMinute: null,
        from: new Date(until).toISOString(),
      })),
      skipping: 0,
    });
    expect((await rollups.readLevelPolicy()).autoSkips()).toEqual([
      { metric: METRIC, fromMs: skipFrom, untilMs: keepFrom },
      { metric: 'mms.other', fromMs: H0 + 5 * H, untilMs: until },
      { metric: 'mms.pinned', fromMs: H0 + 4 * H + 7 * M, untilMs: until },
      { metric: 'mms.raced', fromMs: H0 + 4 * H + M, untilMs: H0 + 4 * H + 7 * M },
    ]);
  });
});
