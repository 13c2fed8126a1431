import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { storesOf } from '@tickertape/store';
import { SegmentWriter } from '@tickertape/segments';
import { TestStack, freePort, spawnService, waitFor } from '@tickertape/testing';
import { seriesKey, type Tick } from '@tickertape/tick';
import type { Db } from 'mongodb';
import type { WorkerEnv } from '../../src/env.js';
import type { WorkerHandle } from '../../src/worker.js';
import { counter, metricValue, Pipeline } from '../support/harness.js';
import {
  DAY,
  HOUR,
  checkRead,
  checkSegments,
  expectedPoints,
  foldInput,
  midnightDaysAgo,
  tick,
} from '../support/segments.js';
import { prng } from '@tickertape/testing';

const workerDir = fileURLToPath(new URL('../..', import.meta.url));

/** The ticks here are days old on purpose (to cross UTC midnights): the lateness window must reach them. */
const segmentVars = (overrides: Record<string, string> = {}) => ({
  MAX_LATENESS_MS: String(7 * DAY),
  ...overrides,
});

const skipped = (worker: WorkerHandle, reason: 'late' | 'unchanged' | 'replayed') =>
  counter(worker, `tickertape_segment_${reason}_total`);

/** `count` readings of one meter, a second apart, from 01:00 two days ago. */
const meterReadings = (count: number): Tick[] => {
  const day0 = midnightDaysAgo(2);
  return Array.from({ length: count }, (_, i) =>
    tick('meter', { id: 'm' }, day0 + HOUR + i * 1000, { kwh: i }),
  );
};

/**
 * A second writer — a zombie that still believes it owns partition 0 — applies `ticks` at the
 * offsets from `firstOffset` before the worker sees them: the worker's cached segment is stale.
 */
const zombieWrites = async (db: Db, ticks: readonly Tick[], firstOffset: number) =>
  new SegmentWriter((await storesOf(db)).segments, {
    maxPoints: 50,
    writeOnlyOnChange: new Set(),
  }).apply(ticks.map((t, i) => foldInput(t, 0, firstOffset + i)));

/**
 * Publishes `ticks` in one producer request — one record batch, so one fetch and one flush —
 * and runs a worker until it has committed them.
 */
async function runOnce(pipeline: Pipeline, env: WorkerEnv, ticks: Tick[]): Promise<WorkerHandle> {
  await pipeline.publish(ticks);
  const worker = await pipeline.startWorker(env);
  await pipeline.waitCaughtUp(env.GROUP_ID!);
  await pipeline.stopWorkers();
  expect(await counter(worker, 'tickertape_flushes_total')).toBe(1);
  return worker;
}

describe('segment worker on the real stack', () => {
  let stack: TestStack;
  let pipeline: Pipeline | undefined;

  beforeAll(async () => {
    stack = await TestStack.open('segments');
  });
  afterEach(async () => {
    await pipeline?.stopWorkers();
    pipeline = undefined;
  });
  afterAll(() => stack.close());

  it('stores exactly the published points of irregular series in bounded, one-day, chained segments; a replay of its group from offset 0 changes no byte', async () => {
    pipeline = await Pipeline.create(stack, 4);
    const day0 = midnightDaysAgo(3);
    const random = prng(6);
    const shapes = [
      { id: 'int-within-a-day', from: day0 + 8 * HOUR, to: day0 + 12 * HOUR, n: 220 },
      { id: 'float-over-midnight', from: day0 + 23 * HOUR, to: day0 + DAY + HOUR, n: 260 },
      { id: 'mixed-two-midnights', from: day0 + 23.5 * HOUR, to: day0 + 2 * DAY + HOUR, n: 300 },
      // Whole seconds: several points share a time, across segment and day boundaries too.
      { id: 'seconds-at-midnight', from: day0 + DAY - 600_000, to: day0 + DAY + 600_000, n: 180 },
      { id: 'sparse', from: day0 + 2 * HOUR, to: day0 + DAY + 20 * HOUR, n: 12 },
      { id: 'single', from: day0 + 5 * HOUR, to: day0 + 5 * HOUR + 1, n: 1 },
    ];
    const ticks: Tick[] = [];
    for (const shape of shapes) {
      const times = Array.from(
        { length: shape.n },
        () => shape.from + Math.floor(random() * (shape.to - shape.from)),
      ).map((t) => (shape.id.startsWith('seconds') ? t - (t % 1000) : t));
      times.sort((a, b) => a - b);
      for (const [i, ts] of times.entries()) {
        const fields: Record<string, number> = shape.id.startsWith('float')
          ? { temp: random() * 400 - 200 }
          : shape.id.startsWith('mixed')
            ? { count: 2 ** 40 + i * 1_000_003, temp: random() * 100, ratio: -random() }
            : { count: Math.floor(random() * 2000) - 1000 };
        ticks.push(tick('sensor', { id: shape.id }, ts, fields));
      }
    }
    // One feed: the series interleaved in time (a stable sort keeps each series' order).
    ticks.sort((a, b) => a.ts - b.ts);
    await pipeline.publish(ticks);

    const maxPoints = 25;
    const env = pipeline.env('segments', segmentVars({ SEGMENT_MAX_POINTS: String(maxPoints) }));
    const worker = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);

    const docs = await pipeline.segments();
    const stored = checkSegments(docs, maxPoints);
    const expected = expectedPoints(ticks);
    expect(stored).toEqual(expected);
    expect(new Set(docs.map((doc) => doc.day)).size).toBe(3);

    // Reads through readRawPoints: whole, edges, midnights, random ranges, a gap, one field.
    for (const [series, points] of expected) {
      const first = points[0]!.t;
      const last = points.at(-1)!.t;
      const ranges: [number, number][] = [
        [first, last + 1],
        [first - DAY, first],
        [last + 1, last + DAY],
      ];
      for (const midnight of [day0 + DAY, day0 + 2 * DAY])
        ranges.push([midnight - 1_800_000, midnight + 1_800_000], [midnight, midnight + DAY]);
      for (let i = 0; i < 8; i++) {
        const from = first - HOUR + Math.floor(random() * (last - first + 2 * HOUR));
        ranges.push([from, from + 1 + Math.floor(random() * 3 * HOUR)]);
      }
      const gap = points.findIndex((p, i) => (points[i + 1]?.t ?? p.t) - p.t > 1);
      if (gap >= 0) ranges.push([points[gap]!.t + 1, points[gap + 1]!.t]);
      for (const [from, to] of ranges) await checkRead(pipeline.db, series, points, from, to);
    }
    const mixed = seriesKey('sensor', { id: 'mixed-two-midnights' });
    await checkRead(pipeline.db, mixed, expected.get(mixed)!, day0, day0 + 3 * DAY, 'temp');

    expect(await counter(worker, 'tickertape_ticks_applied_total')).toBe(ticks.length);
    expect(await counter(worker, 'tickertape_segment_points_written_total')).toBe(ticks.length);
    expect(await counter(worker, 'tickertape_segment_created_total')).toBe(docs.length);
    expect(await skipped(worker, 'late')).toBe(0);
    expect(await skipped(worker, 'unchanged')).toBe(0);
    expect(await skipped(worker, 'replayed')).toBe(0);
    expect(await counter(worker, 'tickertape_segment_conflicts_total')).toBe(0);
    const operations = await counter(worker, 'tickertape_segment_operations_total');
    expect(await counter(worker, 'tickertape_db_operations_total')).toBe(operations);
    expect(operations).toBeGreaterThanOrEqual(docs.length);

    // Replay: the same group from offset 0, a fresh process (nothing cached).
    const before = await pipeline.rawSegments();
    await pipeline.stopWorkers();
    await pipeline.resetOffsets(env.GROUP_ID!);
    const replay = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(await pipeline.rawSegments()).toEqual(before);
    expect(await skipped(replay, 'replayed')).toBe(ticks.length);
    expect(await counter(replay, 'tickertape_segment_points_written_total')).toBe(0);
    expect(await counter(replay, 'tickertape_segment_operations_total')).toBe(0);
    expect(await counter(replay, 'tickertape_segment_conflicts_total')).toBe(0);
  }, 240_000);

  it('a segment worker killed between the write and the commit duplicates no point and loses none once restarted', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const day0 = midnightDaysAgo(2);
    const ticks: Tick[] = [];
    for (let i = 0; i < 150; i++)
      for (let s = 0; s < 4; s++)
        ticks.push(
          tick('meter', { id: `M${s}` }, day0 + DAY - 40 * 60_000 + i * 30_000 + s, {
            kwh: i * 10 + s,
            volts: 230 + ((i * 7 + s) % 13) / 10,
          }),
        );
    await pipeline.publish(ticks);
    const maxPoints = 40;
    const raw = pipeline.rawEnv(
      'segments',
      segmentVars({
        FAULT_CRASH_AFTER_WRITES: '2',
        FLUSH_MAX_TICKS: '100',
        SEGMENT_MAX_POINTS: String(maxPoints),
      }),
    );

    const crashing = spawnService(workerDir, raw);
    expect((await crashing.exited).signal).toBe('SIGKILL');
    // What the crash left is well formed, and each series holds a prefix of its points.
    const expected = expectedPoints(ticks);
    const left = checkSegments(await pipeline.segments(), maxPoints);
    expect(left.size).toBeGreaterThan(0);
    for (const [series, points] of left)
      expect(points).toEqual(expected.get(series)!.slice(0, points.length));

    const env = pipeline.env('segments', { ...raw, FAULT_CRASH_AFTER_WRITES: '' });
    const restarted = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(checkSegments(await pipeline.segments(), maxPoints)).toEqual(expected);
    // The flush written before the crash came back uncommitted and was recognised.
    expect(await skipped(restarted, 'replayed')).toBeGreaterThan(0);
  }, 180_000);

  it('a burst of 1000 points within a second, then hours of silence, fills segments to the bound on the same day and the next', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const day0 = midnightDaysAgo(2);
    const random = prng(4);
    const burst = (id: string, start: number, later: number): Tick[] => [
      ...Array.from({ length: 1000 }, (_, i) =>
        tick('vibration', { id }, start + i, { g: random() * 10 }),
      ),
      tick('vibration', { id }, later, { g: 0 }),
    ];
    const sameDay = burst('same-day', day0 + 2 * HOUR, day0 + 7 * HOUR);
    const nextDay = burst('next-day', day0 + 22 * HOUR, day0 + DAY + 3 * HOUR);
    const ticks = [...sameDay, ...nextDay];
    await pipeline.publish(ticks);
    const env = pipeline.env('segments', segmentVars({ SEGMENT_MAX_POINTS: '300' }));
    await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);

    const docs = await pipeline.segments();
    const expected = expectedPoints(ticks);
    expect(checkSegments(docs, 300)).toEqual(expected);
    const sizes = (id: string) =>
      docs.filter((doc) => doc.series === seriesKey('vibration', { id })).map((doc) => doc.n);
    // The burst makes 300 + 300 + 300 + 100; the point hours later joins the last segment on
    // the same day, and opens a segment of its own on the next.
    expect(sizes('same-day')).toEqual([300, 300, 300, 101]);
    expect(sizes('next-day')).toEqual([300, 300, 300, 100, 1]);

    const key = seriesKey('vibration', { id: 'next-day' });
    const points = expected.get(key)!;
    await checkRead(pipeline.db, key, points, day0 + 22 * HOUR, day0 + 22 * HOUR + 1000);
    await checkRead(pipeline.db, key, points, day0 + 23 * HOUR, day0 + DAY + 2 * HOUR);
    await checkRead(pipeline.db, key, points, day0 + DAY, day0 + 2 * DAY);
  }, 180_000);

  it('leaves out and counts a tick older than the newest stored point; for write-on-change metrics, skips and counts repeated values', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const day0 = midnightDaysAgo(2);
    const at = (hours: number) => day0 + hours * HOUR;
    const temp = (hours: number, c: number) => tick('temp', { room: 'a' }, at(hours), { c });
    const door = (hours: number, open: number, angle = 0) =>
      tick('door', { id: 'd1' }, at(hours), { open, angle });
    const writeOnChange = new Set(['door', 'valve']);
    const env = pipeline.env('segments', segmentVars({ SEGMENT_WRITE_ON_CHANGE: 'door, valve' }));

    const first = [
      ...[temp(1, 20), temp(2, 20), temp(3, 21)],
      ...[door(1, 0), door(2, 0), door(3, 1), door(4, 1), door(4.5, 1, 30), door(5, 1, 30)],
      door(6, 0),
    ];
    await pipeline.publish(first);
    const worker = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    const second = [
      temp(2.5, 99), // older than the stored 3 h point: late
      temp(3, 22), // the same time as the newest stored point: kept
      temp(5, 23),
      temp(4.5, 98), // older than 5 h, which came before it in the same flush: late
      door(7, 0), // equal to the stored newest: skipped
      door(8, 1),
    ];
    await pipeline.publish(second);
    await pipeline.waitCaughtUp(env.GROUP_ID!);

    const expected = expectedPoints([...first, ...second], writeOnChange);
    expect(checkSegments(await pipeline.segments(), 500)).toEqual(expected);
    const times = (points: { t: number }[] | undefined) => points?.map((p) => (p.t - day0) / HOUR);
    expect(times(expected.get(seriesKey('temp', { room: 'a' })))).toEqual([1, 2, 3, 3, 5]);
    expect(times(expected.get(seriesKey('door', { id: 'd1' })))).toEqual([1, 3, 4.5, 6, 8]);
    expect(await skipped(worker, 'late')).toBe(2);
    expect(await skipped(worker, 'unchanged')).toBe(4);
    expect(await counter(worker, 'tickertape_segment_points_written_total')).toBe(10);

    // A new process compares with what the database holds, not with a cache.
    await pipeline.stopWorkers();
    const third = [door(9, 1), temp(4, 50), door(10, 0)];
    await pipeline.publish(third);
    const restarted = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(checkSegments(await pipeline.segments(), 500)).toEqual(
      expectedPoints([...first, ...second, ...third], writeOnChange),
    );
    expect(await skipped(restarted, 'late')).toBe(1);
    expect(await skipped(restarted, 'unchanged')).toBe(1);
    expect(await counter(restarted, 'tickertape_segment_points_written_total')).toBe(1);
  }, 180_000);

  it('a flush refused by the segment guard is not committed but retried in the running consumer: a stale cache costs a retry, never a duplicate', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const all = meterReadings(20);
    await pipeline.publish(all.slice(0, 10));
    // A process of its own: kafkajs' production retry settings, not the ones it uses under jest.
    const port = await freePort();
    const raw = pipeline.rawEnv(
      'segments',
      segmentVars({ SEGMENT_MAX_POINTS: '50', HTTP_PORT: String(port) }),
    );
    const worker = spawnService(workerDir, raw);
    const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    try {
      await pipeline.waitCaughtUp(raw.GROUP_ID!);

      // Offsets 10-14 written behind the worker's back: its next append is refused.
      await zombieWrites(pipeline.db, all.slice(10, 15), 10);
      await pipeline.publish(all.slice(10));
      await pipeline.waitCaughtUp(raw.GROUP_ID!);

      expect(checkSegments(await pipeline.segments(), 50)).toEqual(expectedPoints(all));
      const metrics = await scrape();
      expect(metricValue(metrics, 'tickertape_segment_conflicts_total')).toBe(1);
      // The retry began again at offset 10: the zombie's five were recognised, the rest written.
      expect(metricValue(metrics, 'tickertape_segment_replayed_total')).toBe(5);
      expect(metricValue(metrics, 'tickertape_segment_points_written_total')).toBe(15);
      // Retried by the running consumer: no crash, no restart, still in its group.
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect(worker.output()).toContain('flush failed before its commit');
      expect(worker.output()).not.toContain('consumer crashed');
      expect(worker.child.exitCode).toBeNull();
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('forgets its cached segments whenever it rejoins the group: a partition planned after a rebalance is read from the database', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const all = meterReadings(20);
    await pipeline.publish(all.slice(0, 10));
    const env = pipeline.env('segments', segmentVars({ SEGMENT_MAX_POINTS: '50' }));
    const a = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    await zombieWrites(pipeline.db, all.slice(10, 15), 10);

    // A second member joins and leaves: two rebalances, and `a` rejoins each time.
    const admin = await stack.admin();
    const members = async (count: number) => {
      const { groups } = await admin.describeGroups([env.GROUP_ID!]);
      return groups[0]?.state === 'Stable' && groups[0].members.length === count;
    };
    const b = await pipeline.startWorker(env);
    await waitFor(() => members(2), { description: 'two members in the group', timeoutMs: 60_000 });
    await pipeline.stopWorker(b);
    await waitFor(() => members(1), { description: '`a` alone again', timeoutMs: 60_000 });

    await pipeline.publish(all.slice(10));
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(checkSegments(await pipeline.segments(), 50)).toEqual(expectedPoints(all));
    // Without forget() on the join, `a` would plan from its stale cache and meet a conflict.
    expect(await counter(a, 'tickertape_segment_conflicts_total')).toBe(0);
    expect(await skipped(a, 'replayed')).toBe(5);
  }, 180_000);

  it('sends one database operation per segment a flush creates or appends to', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const all = meterReadings(500);
    const env = pipeline.env(
      'segments',
      segmentVars({ SEGMENT_MAX_POINTS: '300', FLUSH_MAX_TICKS: '5000' }),
    );
    const operations = (worker: WorkerHandle) =>
      counter(worker, 'tickertape_segment_operations_total');
    // 400 points from nothing: two segments inserted (300 + 100), the first closed in its insert.
    expect(await operations(await runOnce(pipeline, env, all.slice(0, 400)))).toBe(2);
    // 100 more: appended to the newest (now 200), nothing else.
    expect(await operations(await runOnce(pipeline, env, all.slice(400)))).toBe(1);
    expect(checkSegments(await pipeline.segments(), 300)).toEqual(expectedPoints(all));
  }, 120_000);

  // A flush that fills the newest segment and opens the next closes it in the append itself.
  it('sends one database operation for a segment a flush fills and closes', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const all = meterReadings(350);
    const env = pipeline.env(
      'segments',
      segmentVars({ SEGMENT_MAX_POINTS: '300', FLUSH_MAX_TICKS: '5000' }),
    );
    await runOnce(pipeline, env, all.slice(0, 100));
    const worker = await runOnce(pipeline, env, all.slice(100));
    expect(checkSegments(await pipeline.segments(), 300)).toEqual(expectedPoints(all));
    // Two segments touched: the newest, filled to 300 and closed, and a new one of 50.
    expect(await counter(worker, 'tickertape_segment_operations_total')).toBe(2);
  }, 120_000);

  it('runs as a process: counts bad records but never dead-letters them, serves /health and /metrics, stops on SIGTERM', async () => {
    pipeline = await Pipeline.create(stack, 1);
    const day0 = midnightDaysAgo(1);
    const good = Array.from({ length: 30 }, (_, i) =>
      tick('meter', { id: 'p' }, day0 + HOUR + i * 60_000, { kwh: i }),
    );
    const key = seriesKey('meter', { id: 'p' });
    await pipeline.publish(good.slice(0, 15));
    await pipeline.publishRaw([
      { key, value: null },
      { key, value: Buffer.from('not a tick') },
    ]);
    await pipeline.publish(good.slice(15));
    const port = await freePort();
    const raw = pipeline.rawEnv(
      'segments',
      segmentVars({ HTTP_PORT: String(port), LOG_LEVEL: 'info' }),
    );
    const worker = spawnService(workerDir, raw);
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200, {
        description: 'the segment worker to report healthy',
        timeoutMs: 60_000,
      });
      await pipeline.waitCaughtUp(raw.GROUP_ID!);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(/tickertape_ticks_consumed_total\{level="segments"\} 32\b/);
      expect(metrics).toMatch(/tickertape_ticks_applied_total\{level="segments"\} 30\b/);
      expect(metrics).toMatch(/tickertape_segment_points_written_total\{level="segments"\} 30\b/);
      expect(metrics).toMatch(/tickertape_segment_created_total\{level="segments"\} 1\b/);
      expect(metrics).toMatch(/tickertape_consumer_lag\{partition="0",level="segments"\} 0\b/);
      expect(metrics).toMatch(/tickertape_segment_late_total\{level="segments"\} 0\b/);
      const deadLetters = [...metrics.matchAll(/tickertape_dead_letters_total\{.*\} (\d+)/g)];
      expect(deadLetters.reduce((sum, m) => sum + Number(m[1]), 0)).toBe(2);
      const admin = await stack.admin();
      // Counted, never sent: the DLQ belongs to DLQ_OWNER_LEVEL's rollup workers.
      const dlq = await admin.fetchTopicOffsets(pipeline.dlqTopic);
      expect(dlq.map((p) => p.high)).toEqual(['0']);
      const { groups } = await admin.describeGroups([raw.GROUP_ID!]);
      expect(groups[0]?.members.map((m) => m.clientId)).toEqual(['tickertape-segments']);
      expect(checkSegments(await pipeline.segments(), 500)).toEqual(expectedPoints(good));
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('rollup worker stopped');
  }, 120_000);
});
