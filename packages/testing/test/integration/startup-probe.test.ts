import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { probeDependencies } from '@tickertape/clients';
import { DependencyUnreachableError } from '@tickertape/errors';
import { MongoClient } from 'mongodb';
import { TestStack, freePort } from '../../src/index.js';

/**
 * What a service injects as its MongoDB probe (the store's probeMongo; this package may not
 * depend on the store): connect, ping, close.
 */
async function probeMongo(uri: string, _logger: unknown, timeoutMs: number): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close().catch(() => undefined);
  }
}

describe('probeDependencies', () => {
  let stack: TestStack;
  let port: number;

  beforeAll(async () => {
    stack = await TestStack.open('probe');
    port = await freePort();
  });
  afterAll(() => stack.close());

  it('passes when every dependency of the running stack answers', async () => {
    await expect(
      probeDependencies(
        {
          KAFKA_BROKERS: stack.env.KAFKA_BROKERS,
          SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
          MONGODB_URI: stack.env.MONGODB_URI,
          probeMongo,
          REDIS_URL: stack.env.REDIS_URL,
        },
        stack.logger,
      ),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['KAFKA_BROKERS', (p: number) => ({ KAFKA_BROKERS: [`127.0.0.1:${p}`] })],
    [
      'SCHEMA_REGISTRY_URL',
      (p: number) => ({ SCHEMA_REGISTRY_URL: `http://127.0.0.1:${p}/apis/ccompat/v7` }),
    ],
    ['MONGODB_URI', (p: number) => ({ MONGODB_URI: `mongodb://127.0.0.1:${p}`, probeMongo })],
    ['REDIS_URL', (p: number) => ({ REDIS_URL: `redis://127.0.0.1:${p}` })],
  ])(
    'fails fast naming %s when it points nowhere',
    async (variable, targets) => {
      const started = Date.now();
      const err: unknown = await probeDependencies(targets(port), stack.logger, 3000).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DependencyUnreachableError);
      expect((err as DependencyUnreachableError).variable).toBe(variable);
      expect((err as Error).message).toContain(variable);
      // "Fast": bounded by the probe deadline, not by a client's default retry schedule.
      expect(Date.now() - started).toBeLessThan(10_000);
    },
    20_000,
  );

  it('never puts a password from the address into its message', async () => {
    const err: unknown = await probeDependencies(
      { MONGODB_URI: `mongodb://app:sup3rsecret@127.0.0.1:${port}/x`, probeMongo },
      stack.logger,
      2000,
    ).catch((e: unknown) => e);
    expect((err as Error).message).toContain('MONGODB_URI');
    expect((err as Error).message).not.toContain('sup3rsecret');
  });
});
