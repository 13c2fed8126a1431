import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack } from '@tickertape/testing';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { roundtrip } from '../../src/commands/demo/roundtrip/run.js';
import { parseCliEnv } from '../../src/env.js';
import { testDatabase } from '@tickertape/store/testing';

const run = promisify(execFile);
const cliDir = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real `tickertape` entry point from source, as a user would (no build needed). */
async function tickertape(args: string[], env: Record<string, string>) {
  return run('pnpm', ['exec', 'tsx', '--conditions=source', 'src/main.ts', ...args], {
    cwd: cliDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

describe('tickertape roundtrip', () => {
  let stack: TestStack;
  let stackEnv: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.open('roundtrip');
    stackEnv = {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      SCHEMA_REGISTRY_URL: stack.env.SCHEMA_REGISTRY_URL,
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
    };
  });
  afterAll(() => stack.close());

  it('takes a tick through the registry and Kafka into a MongoDB minute document, twice', async () => {
    const topic = await stack.createTopic();
    const db = testDatabase(stack);
    const env = parseCliEnv(stackEnv);
    const options = { topic, database: db.databaseName, timeoutMs: 30_000 };

    const first = await roundtrip(env, options, stack.logger);
    const second = await roundtrip(env, options, stack.logger);

    for (const result of [first, second]) {
      const fields = result.document.f as Record<
        string,
        { n: number; sum: number; min: number; max: number }
      >;
      const value = result.tick.fields.celsius!;
      expect(fields.celsius?.min).toBeLessThanOrEqual(value);
      expect(fields.celsius?.max).toBeGreaterThanOrEqual(value);
    }
    // Same subject, same schema: the registry hands back the same id.
    expect(second.schemaId).toBe(first.schemaId);
    expect(BigInt(second.offset)).toBeGreaterThan(BigInt(first.offset));
    // Each run is its own series (its run tag), written once through the workers' writer.
    expect(second.document._id).not.toBe(first.document._id);
    let total = 0;
    for (const collection of new Set([first.collection, second.collection]))
      for (const doc of await db.collection(collection).find().toArray())
        total += (doc.f as { celsius?: { n: number } }).celsius?.n ?? 0;
    expect(total).toBe(2);
  }, 90_000);

  it('stops at start naming a malformed MONGODB_URI', async () => {
    const result = await tickertape(['roundtrip'], { ...stackEnv, MONGODB_URI: 'mongo://nowhere' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('MONGODB_URI');
    expect(result.stdout).toBe('');
  }, 30_000);

  it('stops at start naming an unreachable KAFKA_BROKERS', async () => {
    const result = await tickertape(['roundtrip'], {
      ...stackEnv,
      KAFKA_BROKERS: '127.0.0.1:1',
      STARTUP_TIMEOUT_MS: '3000',
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /DEPENDENCY_UNREACHABLE: KAFKA_BROKERS=127\.0\.0\.1:1 is unreachable/,
    );
  }, 30_000);
});
