/**
 * A metric opted out of the automatic minute-level skip, on the real stack: `tickertape levels
 * keep minute` closes the metric's open span at a minute boundary past the workers' future bound
 * and the policy refresh and pins it; the real workers write the minute level on either side of
 * the span and `tickertape verify` expects exactly that; the real scheduler's `auto-skip` job
 * skips an equally sparse metric and leaves the pinned one alone until `levels auto minute`
 * hands it back.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { POLICY_REFRESH_MS, autoSkipBoundary, floorTo, partitionOf } from '@tickertape/buckets';
import { storesOf, type RollupStore } from '@tickertape/store';
import { TestStack, freePort, spawnService, waitFor, waitHealthy } from '@tickertape/testing';
import { type Tick } from '@tickertape/tick';
import type { Db } from 'mongodb';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/cli.js';
import { Pipeline, publishTicks } from '../support/pipeline.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HOSTS = 2;
const PINNED = 'mms.pinned';
/** As sparse as the pinned one, left to the rule. */
const FREE = 'mms.free';

const schedulerDir = fileURLToPath(new URL('../../../scheduler', import.meta.url));

describe('levels keep minute: a metric pinned out of the automatic skip', () => {
  let stack: TestStack;
  let db: Db;
  let rollups: RollupStore;
  let pipeline: Pipeline;
  let topic: string;
  let ticks: Tick[];
  let now: number;
  let fromMs: number;
  let untilMs: number;
  const levels = (args: string[]) =>
    runCli(stack, ['levels', ...args, '--database', db.databaseName], '', () => now);
  const document = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, unknown>;

  beforeAll(async () => {
    stack = await TestStack.open('cli-auto-skip-pin');
    const opened = await Pipeline.open(stack, 2);
    ({ db, pipeline, topic } = opened);
    ({ rollups } = await storesOf(db));
    now = Date.now();
    // The last whole hour is what the job measures: one tick a minute per series from its start,
    // to a few minutes ahead (within the workers' default future bound of 5 minutes).
    const first = floorTo(now, HOUR) - HOUR;
    // An open span, as the job records it for a sparse metric, before any worker starts.
    fromMs = first + 30 * MINUTE;
    await rollups.changeAutoSkip({ kind: 'skip', metric: PINNED, fromMs }, now);
    ticks = [];
    for (const metric of [PINNED, FREE])
      for (let host = 0; host < HOSTS; host++)
        for (let t = first; t <= now + 3 * MINUTE; t += MINUTE)
          ticks.push({
            metric,
            tags: { host: `h${host}` },
            ts: t + 7000 + host * 1000,
            fields: { used: (t / MINUTE) % 89, free: host },
            strings: {},
          });
    await publishTicks(stack, topic, opened.codec, ticks);
  }, 60_000);

  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  it('closes the open span at a boundary every worker knows in advance, and shows the pin', async () => {
    // --max-future-ms 0 only so the minutes after the boundary lie within the workers' bound here.
    const kept = await levels([
      'keep',
      'minute',
      PINNED,
      '--max-future-ms',
      '0',
      '--format',
      'json',
    ]);
    expect(kept.code).toBe(0);
    untilMs = autoSkipBoundary(now, 0, POLICY_REFRESH_MS);
    expect(untilMs % MINUTE).toBe(0);
    expect(untilMs).toBeGreaterThanOrEqual(now + POLICY_REFRESH_MS + MINUTE);
    expect(document(kept)).toMatchObject({
      levels: { minute: { skip: [], pinned: [PINNED] }, hour: { pinned: [] } },
      autoSkips: [{ metric: PINNED, fromMs, untilMs }],
    });
    const shown = await levels([]);
    expect(shown.code).toBe(0);
    const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    expect(shown.stdout).toBe(
      [
        'minute  keeps every metric',
        'hour    keeps every metric',
        'day     keeps every metric',
        `auto    minute skips ${PINNED} from ${minuteOf(fromMs)} until ${minuteOf(untilMs)} (written again since)`,
        `pinned  minute keeps ${PINNED} (never skipped automatically)`,
        '',
      ].join('\n'),
    );
    // Only the minute level is skipped automatically.
    const hour = await levels(['auto', 'hour', PINNED]);
    expect(hour.code).toBe(2);
    expect(hour.stderr).toContain('only the minute level is skipped automatically');
  });

  it('the workers write the minute level on either side of the span only, and the checker agrees', async () => {
    await pipeline.start();
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    const pinned = ticks.filter((tick) => tick.metric === PINNED);
    const inSpan = pinned.filter((tick) => tick.ts >= fromMs && tick.ts < untilMs);
    expect(await pipeline.metric('minute', 'tickertape_ticks_skipped_total')).toBe(inSpan.length);
    const starts: number[] = [];
    for (const name of new Set(pinned.map((tick) => partitionOf('minute', tick.ts).name)))
      for (const doc of await db
        .collection<{ start: Date }>(name)
        .find({ metric: PINNED, n: { $gt: 0 } })
        .toArray())
        starts.push(doc.start.getTime());
    expect(starts.filter((t) => t >= fromMs && t < untilMs)).toEqual([]);
    expect(starts.filter((t) => t >= untilMs).length).toBeGreaterThan(0);
    expect(starts).toHaveLength(pinned.length - inSpan.length);
  }, 180_000);

  it("the scheduler's job skips an equally sparse metric and leaves the pinned one alone until it is handed back", async () => {
    const port = await freePort();
    const scheduler = spawnService(schedulerDir, {
      KAFKA_BROKERS: stack.env.KAFKA_BROKERS.join(','),
      MONGODB_URI: stack.env.MONGODB_URI,
      REDIS_URL: stack.env.REDIS_URL,
      TOPIC: topic,
      MONGODB_DATABASE: db.databaseName,
      BULLMQ_PREFIX: stack.redisPrefix(),
      SCHEDULER_QUEUE: stack.name('queue'),
      AUTO_SKIP_EVERY_MS: '500',
      SHELL_LEVELS: '',
      HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    try {
      await waitHealthy(scheduler, `http://127.0.0.1:${port}/health`);
      // One run measures both: the free one skipped, the pinned one untouched.
      const policy = await waitFor(
        async () => {
          const read = await rollups.readLevelPolicy();
          return read.autoSkipping('minute', FREE) && read;
        },
        { description: `the job to skip ${FREE}`, timeoutMs: 60_000 },
      );
      expect(policy.autoSkips().filter(({ metric }) => metric === PINNED)).toEqual([
        { metric: PINNED, fromMs, untilMs },
      ]);
      expect(policy.pinnedMetrics()).toEqual([PINNED]);

      now = Date.now();
      const handed = await levels(['auto', 'minute', PINNED, '--format', 'json']);
      expect(handed.code).toBe(0);
      expect(document(handed)).toMatchObject({ levels: { minute: { skip: [], pinned: [] } } });
      await waitFor(async () => (await rollups.readLevelPolicy()).autoSkipping('minute', PINNED), {
        description: `the job to skip ${PINNED} once handed back`,
        timeoutMs: 60_000,
      });
    } finally {
      scheduler.child.kill('SIGTERM');
    }
    expect((await scheduler.exited).code).toBe(0);
  }, 120_000);
});
