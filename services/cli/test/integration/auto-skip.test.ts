/**
 * An automatic minute-level span (what the scheduler's `auto-skip` job records for a sparse
 * metric) end to end on the real workers: the minute workers leave the span's ticks out and
 * write the minutes before and after it, `tickertape levels` shows it, and `tickertape verify`
 * expects exactly that (0 differences). The job's own decisions are tested in
 * services/scheduler/test/integration/auto-skip.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { floorTo, partitionOf } from '@tickertape/buckets';
import { storesOf } from '@tickertape/store';
import { TestStack } from '@tickertape/testing';
import { type Tick } from '@tickertape/tick';
import type { Db } from 'mongodb';
import { runCli } from '../support/cli.js';
import { Pipeline, publishTicks } from '../support/pipeline.js';

const MINUTE = 60_000;
const HOSTS = 3;
const MINUTES = 40;

describe('an automatic minute-level span on the real workers', () => {
  let stack: TestStack;
  let db: Db;
  let pipeline: Pipeline;
  let ticks: Tick[];
  let fromMs: number;
  let untilMs: number;

  beforeAll(async () => {
    stack = await TestStack.open('cli-auto-skip');
    const opened = await Pipeline.open(stack, 2);
    const { topic, codec } = opened;
    ({ db, pipeline } = opened);
    const now = floorTo(Date.now(), MINUTE);
    // Skipped from 30 minutes ago until 15 minutes ago; recorded before any worker starts, as the
    // job records a span ahead of every tick it covers.
    fromMs = now - 30 * MINUTE;
    untilMs = now - 15 * MINUTE;
    const { rollups } = await storesOf(db);
    await rollups.changeAutoSkip({ kind: 'skip', metric: 'mms.net', fromMs }, Date.now());
    await rollups.changeAutoSkip({ kind: 'keep', metric: 'mms.net', untilMs }, Date.now());
    ticks = [];
    for (let host = 0; host < HOSTS; host++)
      for (let m = MINUTES; m > 0; m--)
        ticks.push({
          metric: 'mms.net',
          tags: { host: `h${host}` },
          ts: now - m * MINUTE + 7000 + host * 1000,
          fields: { rx: m * 10 + host, tx: host },
          strings: {},
        });
    await publishTicks(stack, topic, codec, ticks);
  }, 60_000);

  afterAll(async () => {
    await pipeline.stop();
    await stack.close();
  });

  it('is shown by tickertape levels', async () => {
    const shown = await runCli(stack, ['levels', '--database', db.databaseName]);
    expect(shown.code).toBe(0);
    const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    expect(shown.stdout).toContain(
      `auto    minute skips mms.net from ${minuteOf(fromMs)} until ${minuteOf(untilMs)} (written again since)\n`,
    );
  });

  it('the minute workers leave out the span only, and the checker agrees', async () => {
    await pipeline.start();
    const { code, report } = await pipeline.verify();
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    const inSpan = ticks.filter((tick) => tick.ts >= fromMs && tick.ts < untilMs);
    expect(inSpan).toHaveLength(HOSTS * 15);
    expect(await pipeline.metric('minute', 'tickertape_ticks_skipped_total')).toBe(inSpan.length);
    expect(await pipeline.metric('hour', 'tickertape_ticks_skipped_total')).toBe(0);
    const starts: number[] = [];
    for (const name of new Set(ticks.map((tick) => partitionOf('minute', tick.ts).name)))
      for (const doc of await db
        .collection<{ start: Date }>(name)
        .find({ metric: 'mms.net', n: { $gt: 0 } })
        .toArray())
        starts.push(doc.start.getTime());
    expect(starts.filter((t) => t >= fromMs && t < untilMs)).toEqual([]);
    expect(starts).toHaveLength(HOSTS * (MINUTES - 15));
  }, 180_000);
});
