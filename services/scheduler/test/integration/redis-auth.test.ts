import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRedis, probeDependencies } from '@tickertape/clients';
import { DependencyAuthError, isRetriable } from '@tickertape/errors';
import { TestStack, freePort, spawnService, waitFor, waitHealthy } from '@tickertape/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { testDatabase } from '@tickertape/store/testing';

const schedulerDir = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = 'redis-test-password-5d1c';
const WRONG = 'redis-wrong-password-77aa';

/**
 * A throwaway Redis that demands a password (the stack's own has none), on a free port, with
 * nothing written to disk.
 */
async function startRedisWithPassword(): Promise<{ port: number; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--requirepass', PASSWORD, '--save', ''],
    { stdio: 'ignore' },
  );
  await waitFor(
    async () => {
      const probe = createRedis({
        url: `redis://:${PASSWORD}@127.0.0.1:${port}`,
        logger: stack.logger.child({}, { level: 'silent' }),
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        extra: { retryStrategy: () => null },
      });
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    },
    { description: 'the password-protected redis-server to answer' },
  );
  return { port, server };
}

let stack: TestStack;

describe('redis with a password', () => {
  let redis: { port: number; server: ChildProcess };
  const url = (password?: string) =>
    `redis://${password === undefined ? '' : `:${password}@`}127.0.0.1:${redis.port}`;

  beforeAll(async () => {
    stack = await TestStack.open('redis-auth');
    redis = await startRedisWithPassword();
  });
  afterAll(async () => {
    redis.server.kill('SIGTERM');
    await once(redis.server, 'exit');
    await stack.close();
  });

  const startScheduler = (redisUrl: string, over: Record<string, string>) =>
    spawnService(schedulerDir, {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: redisUrl,
      MONGODB_DATABASE: testDatabase(stack).databaseName,
      SCHEDULER_QUEUE: stack.name('queue'),
      HTTP_PORT: '0',
      LOG_LEVEL: 'debug',
      ...over,
    });

  it('works with the password in REDIS_URL', async () => {
    const client = createRedis({ url: url(PASSWORD), logger: stack.logger });
    try {
      await client.set('tickertape:auth', 'yes');
      expect(await client.get('tickertape:auth')).toBe('yes');
    } finally {
      client.disconnect();
    }
    await expect(
      probeDependencies({ REDIS_URL: url(PASSWORD) }, stack.logger, 3000),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['without a password', undefined, /NOAUTH/],
    ['with a wrong password', WRONG, /WRONGPASS/],
  ])(
    'fails the probe %s: a non-retriable DependencyAuthError naming REDIS_URL',
    async (_case, password, reply) => {
      const err: unknown = await probeDependencies(
        { REDIS_URL: url(password) },
        stack.logger,
        3000,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DependencyAuthError);
      expect(isRetriable(err)).toBe(false);
      const message = (err as Error).message;
      expect(message).toMatch(/^REDIS_URL=redis:\/\/.*refused the credentials/);
      expect(message).toMatch(reply);
      expect(message).not.toContain(WRONG);
    },
  );

  it('runs the scheduler with the password in REDIS_URL, and never logs it', async () => {
    const port = await freePort();
    const scheduler = startScheduler(url(PASSWORD), { HTTP_PORT: String(port) });
    try {
      await waitHealthy(scheduler, `http://127.0.0.1:${port}/health`);
    } finally {
      scheduler.child.kill('SIGTERM');
    }
    expect(await scheduler.exited).toEqual({ code: 0, signal: null });
    expect(scheduler.output()).not.toContain(PASSWORD);
  }, 90_000);

  it('stops the scheduler at start with a wrong password, naming REDIS_URL and not the password', async () => {
    const scheduler = startScheduler(url(WRONG), { STARTUP_TIMEOUT_MS: '3000' });
    expect((await scheduler.exited).code).toBe(1);
    expect(scheduler.output()).toMatch(/DEPENDENCY_AUTH_FAILED: REDIS_URL=/);
    expect(scheduler.output()).not.toContain(WRONG);
  }, 30_000);
});
