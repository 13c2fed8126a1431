import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  TestStack,
  freePort,
  spawnService,
  waitHealthy,
  type SaslListener,
} from '@tickertape/testing';
import { Pipeline } from '../support/harness.js';
import { trafficTicks } from '../support/ticks.js';

const workerDir = fileURLToPath(new URL('../..', import.meta.url));
const REGISTRY_PASSWORD = 'registry-secret-c0ffee42';
const MONGO_PASSWORD = 'mongo-secret-b4dc0de9';
const WRONG = 'wrong-sasl-secret-123abc';

// The worker as its own process against the local broker's SASL/PLAIN listener: what a
// deployment with KAFKA_SASL_* does, end to end, and what its output says about the secrets.
describe('rollup worker with secrets', () => {
  let stack: TestStack;
  let pipeline: Pipeline;
  let sasl: SaslListener;
  let saslEnv: Record<string, string>;

  beforeAll(async () => {
    stack = await TestStack.open('security');
    pipeline = await Pipeline.create(stack, 2);
    sasl = stack.saslListener();
    saslEnv = {
      ...stack.saslEnv(),
      // The local registry has no auth and ignores the header; the worker still sends it.
      SCHEMA_REGISTRY_USERNAME: 'registry-key',
      SCHEMA_REGISTRY_PASSWORD: REGISTRY_PASSWORD,
      LOG_LEVEL: 'debug',
    };
  });
  afterAll(() => stack.close());

  const expectNoSecret = (output: string) => {
    for (const secret of [sasl.password, REGISTRY_PASSWORD, MONGO_PASSWORD, WRONG])
      expect(output).not.toContain(secret);
  };

  it('consumes through the SASL listener and reports healthy, never logging a secret', async () => {
    const ticks = trafficTicks(Date.now(), { series: 3, minutes: 2, stepMs: 1000 });
    await pipeline.publish(ticks);
    const port = await freePort();
    const raw = pipeline.rawEnv('minute', { ...saslEnv, HTTP_PORT: String(port) });
    const worker = spawnService(workerDir, raw);
    try {
      await waitHealthy(worker, `http://127.0.0.1:${port}/health`);
      await pipeline.waitCaughtUp(raw.GROUP_ID!);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(`tickertape_ticks_applied_total\\{level="minute"\\} ${ticks.length}\\b`),
      );
      expectNoSecret(metrics);
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('rollup worker stopped');
    expectNoSecret(worker.output());
  }, 120_000);

  it('stops at start on a wrong SASL password: DEPENDENCY_AUTH_FAILED naming the variables', async () => {
    const worker = spawnService(
      workerDir,
      pipeline.rawEnv('minute', {
        ...saslEnv,
        KAFKA_SASL_PASSWORD: WRONG,
        STARTUP_TIMEOUT_MS: '5000',
      }),
    );
    expect((await worker.exited).code).toBe(1);
    expect(worker.output()).toContain(
      `DEPENDENCY_AUTH_FAILED: KAFKA_BROKERS=${sasl.brokers.join(',')} refused the credentials`,
    );
    expect(worker.output()).toContain('KAFKA_SASL_PASSWORD');
    expectNoSecret(worker.output());
  }, 30_000);

  const withPassword = (uri: string) =>
    uri.replace('mongodb://', `mongodb://app:${MONGO_PASSWORD}@`);

  it.each<[string, (mongoUri: string) => Record<string, string>, RegExp]>([
    [
      'a config error beside every secret',
      (uri) => ({ MONGODB_URI: withPassword(uri), ROLLUP_LEVEL: 'week' }),
      /CONFIG_INVALID[\s\S]*ROLLUP_LEVEL/,
    ],
    [
      'half of the SASL settings',
      (uri) => ({ MONGODB_URI: withPassword(uri), KAFKA_SASL_USERNAME: '' }),
      /CONFIG_INVALID[\s\S]*KAFKA_SASL_USERNAME: is required with KAFKA_SASL_MECHANISM=plain/,
    ],
    [
      'a MongoDB URI the driver refuses, quoting it',
      () => ({ MONGODB_URI: `mongodb://app:${MONGO_PASSWORD}@/ticks` }),
      /CONFIG_INVALID[\s\S]*MONGODB_URI: is not a MongoDB URI/,
    ],
    [
      // The local stand-in has no authentication: credentials make it refuse the connection.
      'a MongoDB URI with credentials at start',
      (uri) => ({ MONGODB_URI: withPassword(uri), STARTUP_TIMEOUT_MS: '5000' }),
      /DEPENDENCY_UNREACHABLE: MONGODB_URI=mongodb:\/\/app:%5Bredacted%5D@/,
    ],
  ])(
    'exits on %s without printing a secret',
    async (_case, over, expected) => {
      const worker = spawnService(
        workerDir,
        pipeline.rawEnv('minute', { ...saslEnv, ...over(stack.env.MONGODB_URI) }),
      );
      expect((await worker.exited).code).toBe(1);
      expect(worker.output()).toMatch(expected);
      expectNoSecret(worker.output());
    },
    30_000,
  );
});
