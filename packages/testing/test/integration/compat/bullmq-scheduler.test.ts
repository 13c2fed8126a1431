/**
 * Compatibility: a BullMQ job scheduler (the periodic flush/compaction trigger) against real
 * Redis — it fires repeatedly, a Worker processes each run, upserting it again updates it in
 * place, and removing it stops it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { TestStack, waitFor } from '../../../src/index.js';

interface FlushData {
  kind: string;
  version: number;
}

describe('BullMQ job scheduler', () => {
  let stack: TestStack;
  const connections: Redis[] = [];
  let queue: Queue<FlushData, string> | undefined;
  let worker: Worker<FlushData, string> | undefined;

  beforeAll(async () => {
    stack = await TestStack.open('compat-bullmq');
  });
  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    // Connections handed to BullMQ stay ours to close.
    for (const connection of connections) connection.disconnect();
    await stack.close();
  }, 30_000);

  it('fires every 500 ms, a worker processes the runs, upsert updates in place, remove stops it', async () => {
    const prefix = stack.redisPrefix();
    const queueName = stack.name('queue');
    const schedulerId = 'flush-minute';
    const queueConnection = stack.bullConnection();
    const workerConnection = stack.bullConnection();
    connections.push(queueConnection, workerConnection);

    queue = new Queue<FlushData, string>(queueName, { connection: queueConnection, prefix });
    const runs: {
      id: string | undefined;
      name: string;
      data: FlushData;
      scheduler: string | undefined;
    }[] = [];
    worker = new Worker<FlushData, string>(
      queueName,
      (job) => {
        runs.push({ id: job.id, name: job.name, data: job.data, scheduler: job.repeatJobKey });
        return Promise.resolve(`flushed ${job.data.kind} v${job.data.version}`);
      },
      { connection: workerConnection, prefix },
    );
    const failed: string[] = [];
    worker.on('failed', (_job, err) => failed.push(err.message));

    const next = await queue.upsertJobScheduler(
      schedulerId,
      { every: 500 },
      { name: 'flush', data: { kind: 'minute', version: 1 } },
    );
    expect(next.name).toBe('flush');
    expect(next.repeatJobKey).toBe(schedulerId);

    await waitFor(() => runs.length >= 2, {
      description: 'two scheduled runs processed',
      timeoutMs: 20_000,
    });
    expect(runs[0]).toMatchObject({
      name: 'flush',
      data: { kind: 'minute', version: 1 },
      scheduler: schedulerId,
    });
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length); // each run is its own job

    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: schedulerId, every: 500, name: 'flush' });

    // Upserting the same id replaces the template; it does not add a second scheduler.
    await queue.upsertJobScheduler(
      schedulerId,
      { every: 500 },
      { name: 'flush', data: { kind: 'minute', version: 2 } },
    );
    expect(await queue.getJobSchedulersCount()).toBe(1);
    await waitFor(() => runs.some((r) => r.data.version === 2), {
      description: 'a run with the new template',
      timeoutMs: 20_000,
    });

    const completed = await waitFor(
      async () => {
        const jobs = await queue!.getCompleted();
        return jobs.length >= 2 ? jobs : undefined;
      },
      { description: 'completed jobs with their return values', timeoutMs: 10_000 },
    );
    expect(completed.map((j) => j.returnvalue)).toEqual(
      expect.arrayContaining(['flushed minute v1', 'flushed minute v2']),
    );
    expect(failed).toEqual([]);

    expect(await queue.removeJobScheduler(schedulerId)).toBe(true);
    expect(await queue.getJobSchedulersCount()).toBe(0);
    expect(await queue.getJobScheduler(schedulerId)).toBeUndefined();
    // Removing the scheduler also removes its pending next run, so nothing fires any more.
    expect(await queue.getDelayedCount()).toBe(0);
    expect(await queue.removeJobScheduler(schedulerId)).toBe(false);

    // Its keys live under our prefix, which close() deletes.
    expect(await stack.redis.keys(`${prefix}:${queueName}:*`)).not.toHaveLength(0);
  }, 60_000);
});
