import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, freePort, spawnService, waitFor } from '@tickertape/testing';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@tickertape/store/testing';

const schedulerDir = fileURLToPath(new URL('../..', import.meta.url));

describe('scheduler process', () => {
  let stack: TestStack;
  let base: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.open('scheduler-process');
    base = {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      MONGODB_DATABASE: testDatabase(stack).databaseName,
      BULLMQ_PREFIX: stack.redisPrefix(),
      SCHEDULER_QUEUE: stack.name('queue'),
      LOG_LEVEL: 'info',
    };
  });
  afterAll(() => stack.close());

  it('refuses a finality grace shorter than the lateness bound, naming the variable', async () => {
    const scheduler = spawnService(schedulerDir, {
      ...base,
      MAX_LATENESS_MS: '3600000',
      FINALITY_GRACE_MS: '1000',
    });
    expect((await scheduler.exited).code).toBe(1);
    expect(scheduler.output()).toContain('FINALITY_GRACE_MS');
  }, 30_000);

  it('reports healthy, then stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const scheduler = spawnService(schedulerDir, { ...base, HTTP_PORT: String(port) });
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200, {
        description: 'the scheduler to report healthy',
        timeoutMs: 60_000,
      });
    } finally {
      scheduler.child.kill('SIGTERM');
    }
    expect(await scheduler.exited).toEqual({ code: 0, signal: null });
    expect(scheduler.output()).toContain('scheduler stopped');
  }, 90_000);
});
