/**
 * Compatibility: the Redis basics BullMQ and our later dedupe rely on — SET/GET with a TTL,
 * SET NX, and Lua scripts run atomically with EVAL / EVALSHA.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, waitFor } from '../../../src/index.js';

/** Marks `member` seen under `key` once: 1 the first time, 0 after; the key expires after `ttlMs`. */
const SEEN_ONCE = `
local added = redis.call('SADD', KEYS[1], ARGV[1])
if added == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return added
`;

describe('Redis basics', () => {
  let stack: TestStack;
  let prefix: string;

  beforeAll(async () => {
    stack = await TestStack.open('compat-redis');
    prefix = stack.redisPrefix();
  });
  afterAll(() => stack.close());

  it('stores a value with a TTL that expires on its own', async () => {
    const key = `${prefix}:ttl`;
    expect(await stack.redis.set(key, 'v1', 'PX', 400)).toBe('OK');
    expect(await stack.redis.get(key)).toBe('v1');
    const ttl = await stack.redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(400);
    await waitFor(async () => (await stack.redis.get(key)) === null, {
      description: 'the key to expire',
      timeoutMs: 5000,
    });
    expect(await stack.redis.exists(key)).toBe(0);

    // A key without a TTL reports -1; a missing key -2.
    await stack.redis.set(`${prefix}:forever`, 'x');
    expect(await stack.redis.pttl(`${prefix}:forever`)).toBe(-1);
    expect(await stack.redis.pttl(`${prefix}:missing`)).toBe(-2);
  });

  it('sets only if absent with NX (a lease)', async () => {
    const key = `${prefix}:lease`;
    expect(await stack.redis.set(key, 'owner-a', 'PX', 10_000, 'NX')).toBe('OK');
    expect(await stack.redis.set(key, 'owner-b', 'PX', 10_000, 'NX')).toBeNull();
    expect(await stack.redis.get(key)).toBe('owner-a');
  });

  it('runs a Lua script atomically with EVAL and EVALSHA', async () => {
    const key = `${prefix}:seen:p0`;
    expect(await stack.redis.eval(SEEN_ONCE, 1, key, 'offset-42', 60_000)).toBe(1);
    expect(await stack.redis.eval(SEEN_ONCE, 1, key, 'offset-42', 60_000)).toBe(0);
    expect(await stack.redis.eval(SEEN_ONCE, 1, key, 'offset-43', 60_000)).toBe(1);
    expect((await stack.redis.smembers(key)).sort()).toEqual(['offset-42', 'offset-43']);
    expect(await stack.redis.pttl(key)).toBeGreaterThan(0);

    // Loaded once, run by its SHA1 (what ioredis' defineCommand and BullMQ do).
    const sha = (await stack.redis.script('LOAD', SEEN_ONCE)) as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await stack.redis.evalsha(sha, 1, key, 'offset-43', 60_000)).toBe(0);
    expect(await stack.redis.evalsha(sha, 1, key, 'offset-44', 60_000)).toBe(1);

    // Script errors surface as command errors.
    await expect(stack.redis.eval("return redis.call('INCR', KEYS[1])", 1, key)).rejects.toThrow(
      /WRONGTYPE/,
    );
  });
});
