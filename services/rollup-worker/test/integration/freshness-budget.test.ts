import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { consumerLag } from '@tickertape/clients';
import {
  TestStack,
  freePort,
  spawnService,
  waitFor,
  type ServiceProcess,
} from '@tickertape/testing';
import { counter, metricValue, Pipeline } from '../support/harness.js';
import { expectedBuckets, trafficTicks } from '../support/ticks.js';

const workerDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Freshness budgets on the real stack: a worker holds a partition's ticks across fetches until
 * the oldest has waited its budget, writes one update per bucket for all of them, and commits
 * only after the write. Held ticks are never committed: SIGKILL and rebalances drop them and
 * they are consumed again (exact); SIGTERM writes and commits them before the worker leaves.
 */
describe('rollup worker with a freshness budget', () => {
  let stack: TestStack;
  let pipeline: Pipeline | undefined;
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await TestStack.open('budget');
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    await pipeline?.stopWorkers();
    pipeline = undefined;
  });
  afterAll(() => stack.close());

  /** Flushes a worker's /metrics page counts for one cause. */
  const flushesFor = (text: string, cause: string) =>
    text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('tickertape_flushes_by_cause_total{') &&
          line.includes(`cause="${cause}"`),
      )
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);

  const lag = async (groupId: string) =>
    (await consumerLag(await stack.admin(), groupId, pipeline!.topic)).total;

  it('holds ticks published over many fetches and writes each bucket once when the budget runs out', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const env = pipeline.env('minute', { FRESHNESS_BUDGET_MS: '4000', FLUSH_MAX_TICKS: '100000' });
    const worker = await pipeline.startWorker(env);
    // 5 sensors, one reading every 2 s over a minute, published in 12 sends 150 ms apart: each
    // fetch (FLUSH_MAX_WAIT_MS 100) brings a few, all held by the same 4 s budget.
    const ticks = trafficTicks(Date.now(), { series: 5, minutes: 1, stepMs: 2000 });
    const sends = 12;
    for (let i = 0; i < sends; i++) {
      await pipeline.publish(ticks.filter((_, index) => index % sends === i));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(await pipeline.buckets('minute', ticks)).toEqual(expectedBuckets('minute', ticks));
    const buckets = expectedBuckets('minute', ticks).size;
    // One operation per bucket for all twelve sends (two at most if a minute boundary or the
    // budget fell between sends): the fetches did not each write.
    const operations = await counter(worker, 'tickertape_db_operations_total');
    expect(operations).toBeGreaterThanOrEqual(buckets);
    expect(operations).toBeLessThanOrEqual(2 * buckets);
    const text = await worker.metrics.registry.metrics();
    expect(flushesFor(text, 'budget')).toBeGreaterThan(0);
    expect(flushesFor(text, 'size')).toBe(0);
    expect(metricValue(text, 'tickertape_held_records')).toBe(0);
  }, 120_000);

  it('SIGKILL drops what is held uncommitted; the next worker consumes it again, exact', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const ticks = trafficTicks(Date.now(), { series: 4, minutes: 3, stepMs: 1000 });
    await pipeline.publish(ticks);
    // An hour's budget: everything consumed is held, nothing written or committed.
    const port = await freePort();
    const raw = pipeline.rawEnv('hour', {
      FRESHNESS_BUDGET_MS: '3600000',
      FLUSH_MAX_TICKS: '100000',
      HTTP_PORT: String(port),
    });
    const held = spawnService(workerDir, raw);
    processes.push(held);
    await waitFor(
      async () => {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        const text = (await response?.text()) ?? '';
        return metricValue(text, 'tickertape_held_records') === ticks.length;
      },
      { description: 'every tick held', timeoutMs: 60_000 },
    );
    expect(await lag(raw.GROUP_ID!)).toBe(ticks.length);
    expect(await pipeline.buckets('hour', ticks)).toEqual(new Map());
    held.child.kill('SIGKILL');
    await held.exited;

    const env = pipeline.env('hour', { GROUP_ID: raw.GROUP_ID! });
    await pipeline.startWorker(env);
    await pipeline.waitCaughtUp(env.GROUP_ID!);
    expect(await pipeline.buckets('hour', ticks)).toEqual(expectedBuckets('hour', ticks));
  }, 120_000);

  it('SIGTERM writes and commits what is held before the worker leaves its group', async () => {
    pipeline = await Pipeline.create(stack, 2);
    const ticks = trafficTicks(Date.now(), { series: 4, minutes: 3, stepMs: 1000 });
    await pipeline.publish(ticks);
    const env = pipeline.env('day', { FRESHNESS_BUDGET_MS: '3600000', FLUSH_MAX_TICKS: '100000' });
    const worker = await pipeline.startWorker(env);
    await waitFor(
      async () =>
        metricValue(await worker.metrics.registry.metrics(), 'tickertape_held_records') ===
        ticks.length,
      { description: 'every tick held', timeoutMs: 60_000 },
    );
    expect(await lag(env.GROUP_ID!)).toBe(ticks.length);
    await pipeline.stopWorker(worker);
    expect(await lag(env.GROUP_ID!)).toBe(0);
    expect(await pipeline.buckets('day', ticks)).toEqual(expectedBuckets('day', ticks));
    const text = await worker.metrics.registry.metrics();
    expect(flushesFor(text, 'drain')).toBeGreaterThan(0);
  }, 120_000);

  it('a rebalance drops the holds uncommitted; the group ends exact', async () => {
    pipeline = await Pipeline.create(stack, 4);
    const ticks = trafficTicks(Date.now(), { series: 12, minutes: 2, stepMs: 1000 });
    const env = pipeline.env('minute', { FRESHNESS_BUDGET_MS: '3000', FLUSH_MAX_TICKS: '100000' });
    const first = await pipeline.startWorker(env);
    await pipeline.publish(ticks.slice(0, ticks.length / 2));
    await waitFor(
      async () =>
        metricValue(await first.metrics.registry.metrics(), 'tickertape_held_records') > 0,
      { description: 'the first worker holding ticks', timeoutMs: 60_000 },
    );
    // A second member joins while the first holds: the group rebalances under it.
    await pipeline.startWorker(env);
    await pipeline.publish(ticks.slice(ticks.length / 2));
    await pipeline.waitCaughtUp(env.GROUP_ID!, 90_000);
    expect(await pipeline.buckets('minute', ticks)).toEqual(expectedBuckets('minute', ticks));
    expect(await counter(first, 'tickertape_group_joins_total')).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
