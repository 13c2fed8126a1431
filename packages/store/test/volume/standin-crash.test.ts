/**
 * Crash safety of the local database: SIGKILLed in the middle of heavy writes, it restarts on
 * its data file, everything it acknowledged is there, and replaying every flush from the start
 * (what workers do after a crash: from their last committed offset) leaves each bucket exact —
 * the guard sees what was applied, nothing is counted twice or lost. mongo-java-server as shipped
 * committed in the background, in the middle of requests, and after a crash could not open its
 * file again (issue 23); infra/local/mongo/StandInBackend.java commits at request boundaries.
 * Runs in the serial jest run: it kills and restarts the stack's database.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FoldInput, Level } from '@tickertape/buckets';
import { runProcess, waitFor } from '@tickertape/testing';
import { existsSync, readFileSync } from 'node:fs';
import type { Db } from 'mongodb';
import type { RollupStore } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

const SERIES = 500;
const MINUTES = 60;
const TICKS = SERIES * MINUTES;
const BATCH = 2500;
const HOUR_START = Date.parse('2026-11-19T10:00:00Z');
const LEVELS: Level[] = ['minute', 'hour'];
const PARTITIONS: Record<string, string> = {
  minute: 'rollup_minute_20261119',
  hour: 'rollup_hour_202611',
};

const root = new URL('../../../../', import.meta.url).pathname;
const stackDir = process.env.TT_STACK_DIR ?? `${root}.stack`;
const mongoPid = () => Number(readFileSync(`${stackDir}/run/mongo.pid`, 'utf8').trim());
const readStatus = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
};

function batches(): FoldInput[][] {
  const all: FoldInput[] = [];
  for (let minute = 0; minute < MINUTES; minute++)
    for (let s = 0; s < SERIES; s++) {
      const sensor = `s${String(s).padStart(4, '0')}`;
      all.push({
        seriesKey: `traffic|sensor=${sensor}`,
        metric: 'traffic',
        tags: { sensor },
        ts: HOUR_START + minute * 60_000 + (s % 60) * 1000,
        fields: { speed: (s + minute) % 70 },
        strings: {},
        kafkaPartition: s % 2,
        offset: all.length,
      });
    }
  const out: FoldInput[][] = [];
  for (let i = 0; i < all.length; i += BATCH) out.push(all.slice(i, i + BATCH));
  return out;
}

async function storedTicks(db: Db, level: Level): Promise<number> {
  let ticks = 0;
  for await (const bucket of db.collection<{ n: number }>(PARTITIONS[level]!).find({}))
    ticks += bucket.n;
  return ticks;
}

describe('the local database killed with SIGKILL in the middle of heavy writes', () => {
  let stack: StoreStack;
  let store: RollupStore;
  let db: Db;
  const flushes = batches();
  const acknowledged: Record<string, number> = { minute: 0, hour: 0 };

  beforeAll(async () => {
    stack = await StoreStack.open('crash');
    ({ store, db } = await stack.fresh());
  }, 60_000);
  afterAll(() => stack.close(), 300_000);

  it('restarts on its data with everything it acknowledged, and a replay from the start is exact', async () => {
    const victim = mongoPid();
    // Two levels write at once, flush after flush, until the server dies under them.
    const writers = LEVELS.map(async (level) => {
      const writer = store.writer(level);
      for (const flush of flushes) {
        try {
          await writer.apply(flush);
        } catch {
          return;
        }
        acknowledged[level] = acknowledged[level]! + flush.length;
      }
    });
    await waitFor(() => acknowledged.minute! >= 3 * BATCH && acknowledged.hour! >= 3 * BATCH, {
      description: 'three flushes of each level acknowledged',
      timeoutMs: 300_000,
    });
    process.kill(victim, 'SIGKILL');
    await Promise.all(writers);
    // Gone (or a zombie awaiting its reaper), so `up` does not take it for a running server.
    await waitFor(() => !existsSync(`/proc/${victim}`) || /^State:\s+Z/m.test(readStatus(victim)), {
      description: `the killed server (pid ${victim}) to be gone`,
    });
    expect(acknowledged.minute).toBeLessThan(TICKS);

    const up = await runProcess('bash', [`${root}infra/local/stack.sh`, 'up', 'mongo'], {
      env: process.env,
    });
    // Its output names the cause when it cannot start (jest's diff would hide it).
    if (up.code !== 0)
      throw new Error(`stack.sh up mongo exited ${up.code}:\n${up.stdout}\n${up.stderr}`);
    expect(mongoPid()).not.toBe(victim);

    for (const level of LEVELS) {
      // Everything acknowledged survived; a flush in flight may have landed too, never in part
      // of a bucket's guard (the replay below would then count it twice or not at all).
      expect(await storedTicks(db, level)).toBeGreaterThanOrEqual(acknowledged[level]!);
      const writer = store.writer(level);
      for (const flush of flushes) await writer.apply(flush);
      expect(await storedTicks(db, level)).toBe(TICKS);
    }
  }, 900_000);
});
