import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, partitionOf } from '@tickertape/buckets';
import { headerText, readTopic } from '@tickertape/clients';
import { TestStack } from '@tickertape/testing';
import { DLQ_HEADERS, type Tick } from '@tickertape/tick';
import type { Db, Document } from 'mongodb';
import { Pipeline } from '../support/harness.js';
import { trafficTicks } from '../support/ticks.js';
import { testDatabase } from '@tickertape/store/testing';

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

/** Every document of every partition the ticks reach, at every level, by collection and id. */
async function everyBucket(db: Db, ticks: readonly Tick[]): Promise<Record<string, Document[]>> {
  const out: Record<string, Document[]> = {};
  for (const level of LEVELS) {
    for (const name of new Set(ticks.map((t) => partitionOf(level, t.ts).name))) {
      out[name] = await db.collection(name).find().sort({ _id: 1 }).toArray();
    }
  }
  return out;
}

async function deadLetters(stack: TestStack, topic: string): Promise<string[]> {
  const letters: string[] = [];
  await readTopic(
    stack.kafka,
    topic,
    (_partition, messages) => {
      for (const m of messages) {
        const header = (name: string) => headerText(m.headers, name);
        letters.push(
          `${header(DLQ_HEADERS.partition)}/${header(DLQ_HEADERS.offset)} ${header(DLQ_HEADERS.reason)}`,
        );
      }
    },
    { timeoutMs: 30_000, groupPrefix: stack.name('dlq-read') },
  );
  return letters.sort();
}

describe('a replay a week later', () => {
  let stack: TestStack;
  let pipeline: Pipeline;

  beforeAll(async () => {
    stack = await TestStack.open('replay-clock');
    pipeline = await Pipeline.create(stack, 2);
  });
  afterAll(async () => {
    await pipeline.stopWorkers();
    await stack.close();
  });

  it('gives identical buckets and dead letters, the verdicts following the records, not the clock', async () => {
    const now = Date.now();
    const timely = trafficTicks(now, { series: 4, minutes: 3, stepMs: 2000 });
    const odd = (ts: number, sensor: string): Tick => ({
      metric: 'traffic',
      tags: { sensor },
      ts,
      fields: { speed: 7, travel: 1 },
      strings: {},
      source: null,
    });
    const ticks = [
      ...timely,
      // Late but inside the bound, twice at one instant; too late; too far ahead.
      odd(now - 5 * HOUR, 'S1'),
      odd(now - 5 * HOUR, 'S1'),
      odd(now - 7 * HOUR, 'S2'),
      odd(now + HOUR, 'S3'),
    ];
    await pipeline.publish(ticks);

    // The first run, on today's clock, and the replay from offset 0 by a worker whose clock
    // reads a week later, each into its own database and dead-letter topic.
    const runs = [
      { clock: () => Date.now(), db: pipeline.db, dlq: pipeline.dlqTopic },
      { clock: () => Date.now() + WEEK, db: testDatabase(stack), dlq: await stack.createTopic() },
    ];
    for (const run of runs) {
      for (const level of LEVELS) {
        const env = pipeline.env(level, {
          MONGODB_DATABASE: run.db.databaseName,
          DLQ_TOPIC: run.dlq,
          // Every level dead-letters into its run's topic: the verdicts of each level show.
          DLQ_OWNER_LEVEL: level,
        });
        await pipeline.startWorker(env, { clock: run.clock });
        await pipeline.waitCaughtUp(env.GROUP_ID!);
      }
    }

    const [today, nextWeek] = await Promise.all(runs.map((run) => everyBucket(run.db, ticks)));
    expect(Object.values(today!).flat().length).toBeGreaterThan(3 * 4);
    expect(nextWeek).toEqual(today);
    const [lettersToday, lettersNextWeek] = await Promise.all(
      runs.map((run) => deadLetters(stack, run.dlq)),
    );
    // One TOO_LATE and one TIMESTAMP_OUT_OF_RANGE per level.
    expect(lettersToday!.map((letter) => letter.split(' ')[1]).sort()).toEqual(
      [...LEVELS.map(() => 'TIMESTAMP_OUT_OF_RANGE'), ...LEVELS.map(() => 'TOO_LATE')].sort(),
    );
    expect(lettersNextWeek).toEqual(lettersToday);
  }, 180_000);
});
