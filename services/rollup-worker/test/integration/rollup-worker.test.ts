import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { TestStack, spawnService, waitFor } from '@tickertape/testing';
import { counter, Pipeline } from '../support/harness.js';
import { expectedBuckets, trafficTicks } from '../support/ticks.js';

const workerDir = fileURLToPath(new URL('../..', import.meta.url));

describe('rollup worker on the real stack', () => {
  let stack: TestStack;
  let pipeline: Pipeline | undefined;

  beforeAll(async () => {
    stack = await TestStack.open('worker');
  });
  afterEach(async () => {
    await pipeline?.stopWorkers();
    pipeline = undefined;
  });
  afterAll(() => stack.close());

  it('rolls a tick set into every level; one database operation per bucket per flush; a replay from offset 0 changes nothing', async () => {
    pipeline = await Pipeline.create(stack);
    const ticks = trafficTicks(Date.now(), { series: 5, minutes: 8, stepMs: 2000 });
    await pipeline.publish(ticks);

    const envs = LEVELS.map((level) => pipeline!.env(level));
    const workers = await Promise.all(envs.map((env) => pipeline!.startWorker(env)));
    await Promise.all(envs.map((env) => pipeline!.waitCaughtUp(env.GROUP_ID!)));

    for (const [i, level] of LEVELS.entries()) {
      expect(await pipeline.buckets(level, ticks)).toEqual(expectedBuckets(level, ticks));
      const worker = workers[i]!;
      expect(await counter(worker, 'tickertape_ticks_applied_total')).toBe(ticks.length);
      // Coalescing: operations sent = distinct buckets per flush, with nothing replayed.
      expect(await counter(worker, 'tickertape_db_operations_total')).toBe(
        await counter(worker, 'tickertape_buckets_written_total'),
      );
      expect(await counter(worker, 'tickertape_replay_conflicts_total')).toBe(0);
    }
    await pipeline.stopWorkers();

    // Replay the minute level from offset 0: a new group, the same buckets.
    const replayEnv = pipeline.env('minute');
    const replay = await pipeline.startWorker(replayEnv);
    await pipeline.waitCaughtUp(replayEnv.GROUP_ID!);
    expect(await pipeline.buckets('minute', ticks)).toEqual(expectedBuckets('minute', ticks));
    expect(await counter(replay, 'tickertape_replay_conflicts_total')).toBeGreaterThan(0);
  }, 180_000);

  it('two replicas in one group split the partitions and together produce the same buckets as one', async () => {
    pipeline = await Pipeline.create(stack, 4);
    const env = pipeline.env('minute');
    const [a, b] = await Promise.all([pipeline.startWorker(env), pipeline.startWorker(env)]);
    const admin = await stack.admin();
    await waitFor(
      async () => {
        const { groups } = await admin.describeGroups([env.GROUP_ID!]);
        return groups[0]?.state === 'Stable' && groups[0].members.length === 2;
      },
      { description: 'both replicas in the group', timeoutMs: 60_000 },
    );
    const ticks = trafficTicks(Date.now(), { series: 16, minutes: 3, stepMs: 1000 });
    await pipeline.publish(ticks);
    await pipeline.waitCaughtUp(env.GROUP_ID!);

    expect(await pipeline.buckets('minute', ticks)).toEqual(expectedBuckets('minute', ticks));
    const [appliedA, appliedB] = [
      await counter(a, 'tickertape_ticks_applied_total'),
      await counter(b, 'tickertape_ticks_applied_total'),
    ];
    expect(appliedA + appliedB).toBe(ticks.length);
    expect(appliedA).toBeGreaterThan(0);
    expect(appliedB).toBeGreaterThan(0);
  }, 180_000);

  it('a worker killed between the write and the commit leaves no double count once restarted', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const ticks = trafficTicks(Date.now(), { series: 6, minutes: 4, stepMs: 1000 });
    await pipeline.publish(ticks);
    const raw = pipeline.rawEnv('minute', {
      FAULT_CRASH_AFTER_WRITES: '2',
      FLUSH_MAX_TICKS: '100',
    });

    const worker = spawnService(workerDir, raw);
    const exit = await worker.exited;
    // Only the fault injection kills it; its last log line dies with it in pino's buffer.
    expect(exit.signal).toBe('SIGKILL');

    const env = pipeline.env('minute', { GROUP_ID: raw.GROUP_ID! });
    const restarted = await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(await pipeline.buckets('minute', ticks)).toEqual(expectedBuckets('minute', ticks));
    // The flush written before the crash came back and met the guard.
    expect(await counter(restarted, 'tickertape_replay_conflicts_total')).toBeGreaterThan(0);
  }, 180_000);
});
