import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { shellDocument, slotStart, withoutShellPadding, type FoldInput } from '@tickertape/buckets';
import { TestStack } from '@tickertape/testing';
import type { Db, Document } from 'mongodb';
import { RollupWriter, insertShells, recentSeries } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const series = (sensor: string) => ({
  seriesKey: `speed|sensor=${sensor}`,
  metric: 'speed',
  tags: { sensor },
});

function tick(sensor: string, iso: string, offset: number, speed: number): FoldInput {
  return {
    ...series(sensor),
    ts: at(iso),
    fields: { speed },
    strings: {},
    kafkaPartition: 0,
    offset,
  };
}

async function bucket(db: Db, collection: string, id: string) {
  return db.collection<Document & { _id: string }>(collection).findOne({ _id: id });
}

describe('shells on the real database', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.open('shells');
  });
  afterAll(() => stack.close());

  it('a worker writing into a shell produces the same bucket as without one', async () => {
    const [withShell, without] = [stack.database(), stack.database()];
    const start = at('2026-11-21T05:06:00Z');
    const ticks = [
      tick('s1', '2026-11-21T05:06:07.500Z', 0, 61),
      tick('s1', '2026-11-21T05:06:03.000Z', 1, 58),
      tick('s1', '2026-11-21T05:06:59.999Z', 2, 70),
    ];
    for (const level of ['minute', 'hour'] as const) {
      const shell = shellDocument(
        level,
        { ...series('s1'), fields: ['speed', 'travel'] },
        slotStart(level, start),
      );
      expect(await insertShells(withShell, level, [shell])).toBe(1);
      await new RollupWriter(withShell, level).apply(ticks);
      await new RollupWriter(without, level).apply(ticks);
      const [a, b] = [
        await bucket(withShell, shell.collection, shell._id),
        await bucket(without, shell.collection, shell._id),
      ];
      expect(withoutShellPadding(a!)).toEqual(withoutShellPadding(b!));
      expect(withoutShellPadding(b!)).toEqual(b); // a bucket that never was a shell has no padding
      // The shell kept its place for the seconds (or minutes) nobody wrote.
      const sub = (a!.f as Record<string, Record<string, Record<string, unknown>>>).speed![
        level === 'minute' ? 'sec' : 'm'
      ]!;
      expect(Object.keys(sub)).toHaveLength(60);
    }
  });

  it('never overwrites a bucket a worker wrote first (race), and counts what it inserted', async () => {
    const db = stack.database();
    const start = at('2026-11-21T05:07:00Z');
    await new RollupWriter(db, 'minute').apply([tick('s1', '2026-11-21T05:07:01Z', 0, 50)]);
    const shells = ['s1', 's2'].map((s) =>
      shellDocument('minute', { ...series(s), fields: ['speed'] }, start),
    );
    const before = await bucket(db, shells[0]!.collection, shells[0]!._id);

    expect(await insertShells(db, 'minute', shells)).toBe(1);
    expect(await bucket(db, shells[0]!.collection, shells[0]!._id)).toEqual(before);
    expect(await bucket(db, shells[1]!.collection, shells[1]!._id)).toMatchObject({
      n: 0,
      series: 'speed|sensor=s2',
    });
    expect(await insertShells(db, 'minute', shells)).toBe(0);
  });

  it('finds the recently active series with their fields, ignoring shells', async () => {
    const db = stack.database();
    await new RollupWriter(db, 'minute').apply([
      tick('s1', '2026-11-21T05:05:10Z', 0, 50),
      { ...tick('s2', '2026-11-21T05:06:10Z', 1, 40), fields: { speed: 40, travel: 9 } },
      tick('s3', '2026-11-21T04:00:10Z', 2, 30), // too old for the window
    ]);
    await insertShells(db, 'minute', [
      shellDocument('minute', { ...series('s4'), fields: ['speed'] }, at('2026-11-21T05:06:00Z')),
    ]);
    const found = await recentSeries(
      db,
      'minute',
      at('2026-11-21T05:00:00Z'),
      at('2026-11-21T05:07:00Z'),
    );
    expect(found.sort((a, b) => a.seriesKey.localeCompare(b.seriesKey))).toEqual([
      { ...series('s1'), fields: ['speed'] },
      { ...series('s2'), fields: ['speed', 'travel'] },
    ]);
  });
});
