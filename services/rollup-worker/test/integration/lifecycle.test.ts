import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TestStack, freePort, spawnService, waitFor } from '@tickertape/testing';
import { Pipeline } from '../support/harness.js';
import { trafficTicks } from '../support/ticks.js';

const workerDir = fileURLToPath(new URL('../..', import.meta.url));

describe('rollup worker process', () => {
  let stack: TestStack;
  let pipeline: Pipeline;

  beforeAll(async () => {
    stack = await TestStack.open('lifecycle');
    pipeline = await Pipeline.create(stack, 2);
  });
  afterAll(() => stack.close());

  it('serves /health and /metrics, then stops cleanly on SIGTERM', async () => {
    const ticks = trafficTicks(Date.now(), { series: 4, minutes: 2, stepMs: 1000 });
    await pipeline.publish(ticks);
    const port = await freePort();
    const raw = pipeline.rawEnv('minute', { HTTP_PORT: String(port), LOG_LEVEL: 'info' });
    const worker = spawnService(workerDir, raw);
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200, {
        description: 'the worker to report healthy',
        timeoutMs: 60_000,
      });
      await pipeline.waitCaughtUp(raw.GROUP_ID!);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toMatch(
        new RegExp(`tickertape_ticks_applied_total\\{level="minute"\\} ${ticks.length}\\b`),
      );
      expect(metrics).toMatch(/tickertape_consumer_lag\{partition="\d",level="minute"\} 0/);
      expect(metrics).toContain('tickertape_newest_event_time_seconds');
      expect((await fetch(`http://127.0.0.1:${port}/nope`)).status).toBe(404);
    } finally {
      worker.child.kill('SIGTERM');
    }
    const exit = await worker.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('rollup worker stopped');
  }, 120_000);

  it('refuses to start on a bad configuration, naming the variable', async () => {
    const worker = spawnService(workerDir, pipeline.rawEnv('minute', { ROLLUP_LEVEL: 'week' }));
    const exit = await worker.exited;
    expect(exit.code).toBe(1);
    expect(worker.output()).toContain('ROLLUP_LEVEL');
  }, 30_000);

  it('refuses to start when MONGODB_URI points nowhere, naming it', async () => {
    const port = await freePort();
    const worker = spawnService(
      workerDir,
      pipeline.rawEnv('minute', {
        MONGODB_URI: `mongodb://127.0.0.1:${port}`,
        STARTUP_TIMEOUT_MS: '2000',
      }),
    );
    const exit = await worker.exited;
    expect(exit.code).toBe(1);
    expect(worker.output()).toMatch(/DEPENDENCY_UNREACHABLE: MONGODB_URI=/);
  }, 30_000);
});
