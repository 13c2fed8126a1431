import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bucketId, partitionOf, slotStart, type FoldInput, type Level } from '@tickertape/buckets';
import { withoutShellPadding, type RollupStore } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

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

async function bucket(store: RollupStore, level: Level, seriesKey: string, start: number) {
  const [found] = await store
    .partition(partitionOf(level, start).name)
    .byIds([bucketId(level, seriesKey, start)]);
  return found;
}

describe('shells on the real database', () => {
  let stack: StoreStack;

  beforeAll(async () => {
    stack = await StoreStack.open('shells');
  });
  afterAll(() => stack.close());

  it('a worker writing into a shell produces the same bucket as without one', async () => {
    const [{ store: withShell }, { store: without }] = [await stack.fresh(), await stack.fresh()];
    const start = at('2026-11-21T05:06:00Z');
    const ticks = [
      tick('s1', '2026-11-21T05:06:07.500Z', 0, 61),
      tick('s1', '2026-11-21T05:06:03.000Z', 1, 58),
      tick('s1', '2026-11-21T05:06:59.999Z', 2, 70),
    ];
    for (const level of ['minute', 'hour'] as const) {
      const slot = slotStart(level, start);
      const shell = { series: { ...series('s1'), fields: ['speed', 'travel'] }, start: slot };
      expect(await withShell.insertShells(level, [{ ...shell, compact: false }])).toBe(1);
      await withShell.writer(level).apply(ticks);
      await without.writer(level).apply(ticks);
      const [a, b] = [
        await bucket(withShell, level, shell.series.seriesKey, slot),
        await bucket(without, level, shell.series.seriesKey, slot),
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
    const { store } = await stack.fresh();
    const start = at('2026-11-21T05:07:00Z');
    await store.writer('minute').apply([tick('s1', '2026-11-21T05:07:01Z', 0, 50)]);
    const shells = ['s1', 's2'].map((s) => ({
      series: { ...series(s), fields: ['speed'] },
      start,
      compact: false,
    }));
    const before = await bucket(store, 'minute', 'speed|sensor=s1', start);

    expect(await store.insertShells('minute', shells)).toBe(1);
    expect(await bucket(store, 'minute', 'speed|sensor=s1', start)).toEqual(before);
    expect(await bucket(store, 'minute', 'speed|sensor=s2', start)).toMatchObject({
      n: 0,
      series: 'speed|sensor=s2',
    });
    expect(await store.insertShells('minute', shells)).toBe(0);
  });

  it('finds the recently active series with their fields, ignoring shells', async () => {
    const { store } = await stack.fresh();
    await store.writer('minute').apply([
      tick('s1', '2026-11-21T05:05:10Z', 0, 50),
      { ...tick('s2', '2026-11-21T05:06:10Z', 1, 40), fields: { speed: 40, travel: 9 } },
      tick('s3', '2026-11-21T04:00:10Z', 2, 30), // too old for the window
    ]);
    await store.insertShells('minute', [
      {
        series: { ...series('s4'), fields: ['speed'] },
        start: at('2026-11-21T05:06:00Z'),
        compact: false,
      },
    ]);
    const found = await store.recentSeries(
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
