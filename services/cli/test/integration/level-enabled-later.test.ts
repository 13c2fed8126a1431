import { storesOf } from '@tickertape/store';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { slotStart } from '@tickertape/buckets';
import { consumerLag } from '@tickertape/clients';

import { TestStack, waitFor } from '@tickertape/testing';
import {
  compareBuckets,
  expectedBuckets,
  storedBuckets,
  WHOLE_TIME,
  type TruthTick,
} from '@tickertape/verify';
import { seriesKey } from '@tickertape/tick';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { Pipeline } from '../support/pipeline.js';
import { testClient, testDatabase } from '@tickertape/store/testing';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const LATENESS = 6 * HOUR;

/**
 * Ticks of two sensors, one every `stepMs` from `from` for `count` steps; every instant distinct,
 * so first/last never depend on how two sources' offsets compare.
 */
function sensorTicks(from: number, count: number, stepMs: number, base: number): TruthTick[] {
  const ticks: TruthTick[] = [];
  for (let i = 0; i < count; i++) {
    for (const sensor of ['a', 'b']) {
      const tags = { sensor };
      ticks.push({
        series: seriesKey('traffic', tags),
        metric: 'traffic',
        tags,
        ts: from + i * stepMs + (sensor === 'a' ? 0 : 7),
        fields: { speed: base + ((i * 13 + (sensor === 'a' ? 0 : 5)) % 40) },
        strings: {},
        partition: 0,
        offset: ticks.length,
      });
    }
  }
  return ticks;
}

const jsonl = (ticks: readonly TruthTick[]) =>
  ticks
    .map((t) => JSON.stringify({ metric: t.metric, tags: t.tags, ts: t.ts, fields: t.fields }))
    .join('\n') + '\n';

describe('a level enabled later', () => {
  let stack: TestStack;
  let pipeline: Pipeline;
  let database: string;
  let topic: string;

  beforeAll(async () => {
    stack = await TestStack.open('enabled-later');
    topic = await stack.createTopic({
      partitions: 2,
      config: { 'message.timestamp.type': 'LogAppendTime' },
    });
    database = testDatabase(stack).databaseName;
    pipeline = new Pipeline(stack, { topic, dlqTopic: await stack.createTopic(), database });
  });
  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  const run = async (args: string[], stdin = '') => {
    const result = await runCli(stack, args, stdin);
    if (result.code !== 0)
      throw new Error(`tickertape ${args[0]} exited ${result.code}: ${result.stderr}`);
    return result;
  };
  const caughtUp = (group: string) =>
    waitFor(async () => (await consumerLag(await stack.admin(), group, topic)).total === 0, {
      description: `${group} to read the whole topic`,
      timeoutMs: 60_000,
    });

  it('is its past rebuilt from the level below and the topic, plus its live worker from now on: equal to the fold of every tick', async () => {
    const now = Date.now();
    // Weeks of minute and hour: here, a backfilled afternoon three days ago ...
    const history = sensorTicks(
      slotStart('day', now - 3 * DAY) + 14 * HOUR + 20 * MINUTE,
      240,
      10_000,
      10,
    );
    const dir = await mkdtemp(join(tmpdir(), 'enabled-later-'));
    await writeFile(join(dir, 'history.jsonl'), jsonl(history));
    await run([
      'backfill',
      '--database',
      database,
      '--levels',
      'minute,hour',
      '--no-progress',
      join(dir, 'history.jsonl'),
    ]);
    // ... and live ticks through the minute and hour workers.
    await pipeline.start(['minute', 'hour']);
    const before = sensorTicks(now - 20 * MINUTE, 60, 5000, 50);
    await run(['publish', '--topic', topic], jsonl(before));

    // Enabling day: its group starts at the present, then its worker.
    const enabledAt = Date.now();
    await run([
      'replay',
      '--store',
      'day',
      '--group',
      pipeline.groups.day,
      '--topic',
      topic,
      '--from',
      'latest',
    ]);
    await pipeline.start(['day']);
    const after = sensorTicks(now - 10 * MINUTE + 2500, 60, 5000, 90);
    await run(['publish', '--topic', topic], jsonl(after));
    for (const store of ['minute', 'hour', 'day'] as const) await caughtUp(pipeline.groups[store]);
    await pipeline.stop();

    // The past becomes final (here the test plays the scheduler: nothing more arrives).
    const tomorrow = slotStart('day', now) + DAY;
    await (
      await storesOf(testClient(stack).db(database))
    ).rollups.advanceWatermarks({ minute: tomorrow, hour: tomorrow, day: tomorrow }, now);

    // Days wholly before the present's lateness reach come from hour; the rest from the topic.
    const split = slotStart('day', enabledAt - LATENESS);
    const iso = (ms: number) => new Date(ms).toISOString();
    const fromHour = await run([
      'rebuild',
      '--level',
      'day',
      '--source',
      'hour',
      '--from',
      iso(slotStart('day', history[0]!.ts)),
      '--to',
      iso(split),
      '--database',
      database,
      '--no-progress',
    ]);
    expect(fromHour.stdout).toContain('0 differences');
    const fromTopic = await run([
      'rebuild',
      '--level',
      'day',
      '--source',
      'topic',
      '--from',
      iso(split),
      '--to',
      iso(tomorrow),
      '--database',
      database,
      '--topic',
      topic,
      '--no-progress',
    ]);
    expect(fromTopic.stdout).toContain('0 differences');

    const want = expectedBuckets('day', [...history, ...before, ...after]);
    const have = await storedBuckets(
      (await storesOf(testClient(stack).db(database))).rollups,
      'day',
      WHOLE_TIME,
    );
    // The test's ticks do not carry the offsets the backfill and Kafka gave them, so the applied
    // marks and the offsets inside first/last are left out; every instant is distinct, so no
    // first or last depends on them.
    const sourceOnly = (path = '') => path.startsWith('ap.') || path.endsWith('.o');
    expect(compareBuckets('day', want, have).filter((d) => !sourceOnly(d.path))).toEqual([]);
    expect(want.size).toBeGreaterThanOrEqual(4);
  }, 240_000);
});
