/**
 * The level policy end to end, on the real workers and stack: `tickertape levels skip` makes the
 * minute workers acknowledge a sparse metric's ticks without writing them, `levels compact` makes
 * the hour workers keep a sum and a count per minute of it, the checker expects exactly that (0
 * differences), and a rebuild that would roll the skipping level up over the keeping one is
 * refused before it writes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ceilTo, floorTo, partitionOf } from '@tickertape/buckets';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { type Tick } from '@tickertape/tick';
import type { Db } from 'mongodb';
import { runCli } from '../support/cli.js';
import { Pipeline, publishTicks } from '../support/pipeline.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HOSTS = 5;
const MINUTES = 30;

describe('the level policy', () => {
  let stack: TestStack;
  let db: Db;
  let pipeline: Pipeline;
  let now: number;
  const levels = (args: string[]) =>
    runCli(stack, ['levels', ...args, '--database', db.databaseName]);

  beforeAll(async () => {
    stack = await TestStack.open('cli-level-policy');
    const opened = await Pipeline.open(stack, 2);
    const { topic, codec } = opened;
    ({ db, pipeline } = opened);
    now = Date.now();
    const ticks: Tick[] = [];
    // Metrics once a minute (MMS's agents), sensors every 2 s.
    for (let host = 0; host < HOSTS; host++)
      for (let m = MINUTES; m > 0; m--)
        ticks.push({
          metric: 'mms.cpu',
          tags: { host: `h${host}` },
          ts: now - m * MINUTE + host * 1000,
          fields: { user: m, system: host },
          strings: {},
        });
    for (let sensor = 0; sensor < 3; sensor++)
      for (let ts = now - 4 * MINUTE; ts < now; ts += 2000)
        ticks.push({
          metric: 'traffic',
          tags: { sensor: `s${sensor}` },
          ts: ts + sensor,
          fields: { speed: 50 + sensor },
          strings: {},
        });
    await publishTicks(stack, topic, codec, ticks);
  }, 60_000);

  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  it('is set and shown with tickertape levels', async () => {
    const shown = await levels([]);
    expect(shown).toMatchObject({ code: 0 });
    expect(shown.stdout).toBe(
      'minute  keeps every metric\nhour    keeps every metric\nday     keeps every metric\n',
    );
    const set = await levels(['skip', 'minute', 'mms.cpu']);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('minute  skips mms.cpu\n');
    const nowhere = await levels(['skip', 'hour', 'mms.cpu']).then(() =>
      levels(['skip', 'day', 'mms.cpu']),
    );
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('metric mms.cpu skips every level');
    expect((await levels(['keep', 'hour', 'mms.cpu'])).stdout).toBe(
      'minute  skips mms.cpu\nhour    keeps every metric\nday     keeps every metric\n',
    );
    expect((await levels(['compact', 'hour', 'mms.cpu'])).stdout).toBe(
      'minute  skips mms.cpu\nhour    compact mms.cpu\nday     keeps every metric\n',
    );
    const noCompactMinute = await levels(['compact', 'minute', 'traffic']);
    expect(noCompactMinute.code).toBe(2);
    expect(noCompactMinute.stderr).toContain('the minute level has no compact form (only hour)');
    expect((await levels(['skip', 'second', 'x'])).stderr).toContain(
      'unknown level second; levels: minute, hour, day',
    );
  });

  it('sets sketches and weights for every level with tickertape levels', async () => {
    const weighted = await levels(['weight', 'stock.tick', 'price=volume', 'bid=size']);
    expect(weighted.code).toBe(0);
    expect(weighted.stdout).toContain('\nweight  stock.tick: bid by size, price by volume\n');
    const self = await levels(['weight', 'stock.tick', 'ask=size', 'volume=volume']);
    expect(self.code).toBe(2);
    expect(self.stderr).toContain('stock.tick: field volume cannot be weighted by itself');
    // Refused whole: the valid change beside it was not stored either.
    expect((await levels([])).stdout).not.toContain('ask by size');
    const bad = await levels(['weight', 'stock.tick', 'price']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('give <field>=<weight field>');
    expect((await levels(['no-weight', 'stock.tick', 'price', 'bid'])).stdout).not.toContain(
      'weight',
    );
    // Traffic keeps sketches from here on: the workers and the checker below must agree on them.
    expect((await levels(['sketch', 'traffic', 'x.y'])).stdout).toContain(
      '\nsketch  traffic, x.y\n',
    );
    expect((await levels(['no-sketch', 'x.y'])).stdout).toBe(
      'minute  skips mms.cpu\nhour    compact mms.cpu\nday     keeps every metric\nsketch  traffic\n',
    );
  });

  it('the workers skip the metric at the minute level and keep compact hours of it; the checker agrees', async () => {
    await pipeline.start();
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    expect(report.tally.valid).toBe(HOSTS * MINUTES + 3 * 120);
    const minute = db.collection(partitionOf('minute', now).name);
    expect(await minute.countDocuments({ metric: 'mms.cpu' })).toBe(0);
    expect(await minute.countDocuments({ metric: 'traffic', n: { $gt: 0 } })).toBeGreaterThan(0);
    expect(await pipeline.metric('minute', 'tickertape_ticks_skipped_total')).toBe(HOSTS * MINUTES);
    expect(await pipeline.metric('hour', 'tickertape_ticks_skipped_total')).toBe(0);
    const hours = await db
      .collection<{ f: { user: Record<string, unknown> }; c: Record<string, object> }>(
        partitionOf('hour', now).name,
      )
      .find({ metric: 'mms.cpu' })
      .toArray();
    // Near a month's end the hours span two partitions; what this one holds is one tick a minute.
    expect(hours.length).toBeGreaterThan(0);
    for (const hour of hours) {
      expect(hour.f.user.m).toBeUndefined();
      expect(Object.values(hour.c['system,user']!).every((count) => count === 1)).toBe(true);
    }
  }, 180_000);

  it('refuses to rebuild the hour level from the minute level that skips a metric it keeps', async () => {
    const fromMs = floorTo(now - MINUTES * MINUTE, HOUR);
    const toMs = ceilTo(now, HOUR);
    await (await storesOf(db)).rollups.advanceWatermarks({ minute: toMs, hour: toMs }, now);
    const run = await runCli(stack, [
      'rebuild',
      '--database',
      db.databaseName,
      '--level',
      'hour',
      '--from',
      new Date(fromMs).toISOString(),
      '--to',
      new Date(toMs).toISOString(),
      '--source',
      'minute',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'the minute level skips mms.cpu (level policy) while hour keeps it',
    );
    expect(run.stderr).toContain('use --source topic');
  });
});
