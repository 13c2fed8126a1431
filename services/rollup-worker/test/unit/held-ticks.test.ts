import { describe, expect, it } from '@jest/globals';
import type { FoldInput } from '@tickertape/buckets';
import {
  dueAfter,
  estimateHeldBytes,
  heldSince,
  overMemory,
  PartitionHold,
  writeLead,
} from '../../src/held-ticks.js';
import { DEFAULT_FRESHNESS_BUDGET_MS, freshnessBudgetMs, parseWorkerEnv } from '../../src/env.js';

const tick = (offset: number): FoldInput => ({
  seriesKey: 'traffic|dir=E,sensor=s0001',
  metric: 'traffic',
  tags: { sensor: 's0001', dir: 'E' },
  ts: 0,
  fields: { speed: 61.5, occupancy: 0.12 },
  strings: {},
  kafkaPartition: 0,
  offset,
});

describe('a partition hold', () => {
  it('spans fetches: first offset and time of the first, last offset of the latest', () => {
    const hold = new PartitionHold();
    expect(hold.isDue(10_000, 0)).toBe(false);
    hold.add([tick(7), tick(8)], '7', '9', 3, 1000);
    hold.add([tick(10)], '10', '10', 1, 1800);
    expect(hold.records).toBe(4);
    expect(hold.isDue(5999, 5000)).toBe(false);
    expect(hold.isDue(6000, 5000)).toBe(true);
    const held = hold.take()!;
    expect(held).toMatchObject({ firstOffset: '7', lastOffset: '10', records: 4, heldSince: 1000 });
    expect(held.inputs.map((i) => i.offset)).toEqual([7, 8, 10]);
    expect(hold.isEmpty).toBe(true);
    expect(hold.take()).toBeUndefined();
  });

  it('estimates a two-field, two-tag tick above the 306 B measured on the heap, within 1.5×', () => {
    const bytes = estimateHeldBytes(tick(0));
    expect(bytes).toBeGreaterThanOrEqual(306);
    expect(bytes).toBeLessThan(306 * 1.5);
  });
});

describe('where a budget starts', () => {
  it.each([
    // consumed, produced, budget → since
    ['consumed at once', 10_000, 10_000, 5000, 10_000],
    ['after the 400 ms fetch wait: counted from production', 10_400, 10_000, 5000, 10_000],
    ['a backlog 30 s old: a second counted, the rest held', 40_000, 10_000, 5000, 39_000],
    ['a short budget: a quarter of it at most', 40_000, 10_000, 400, 39_900],
    ['a broker clock ahead of the worker: from consumption', 10_000, 12_000, 5000, 10_000],
    ['no timestamp', 10_000, Number.NaN, 5000, 10_000],
  ])('%s', (_name, consumed, produced, budget, since) => {
    expect(heldSince(consumed, produced, budget)).toBe(since);
  });
});

describe('a write started early by its expected time', () => {
  it.each([
    // budget, last write → lead, due after
    ['no write yet', 60_000, 0, 0, 60_000],
    ['a 3 s write of an hour hold', 60_000, 3_000, 3_000, 57_000],
    ['a write slower than a quarter of the budget: a quarter', 5_000, 4_000, 1_250, 3_750],
    ['fractions of a millisecond rounded', 5_000, 12.6, 13, 4_987],
    ['budget 0 writes every batch whatever the write took', 0, 800, 0, 0],
  ])('%s', (_name, budget, lastWrite, lead, due) => {
    expect(writeLead(budget, lastWrite)).toBe(lead);
    expect(dueAfter(budget, lastWrite)).toBe(due);
  });
});

describe('the memory bound', () => {
  it('picks the largest holds until the rest fits', () => {
    const holds = new Map([
      [0, { bytes: 10 }],
      [1, { bytes: 50 }],
      [2, { bytes: 30 }],
      [3, { bytes: 0 }],
    ]);
    expect(overMemory(holds, 90)).toEqual([]);
    expect(overMemory(holds, 89)).toEqual([1]);
    expect(overMemory(holds, 40)).toEqual([1]);
    expect(overMemory(holds, 39)).toEqual([1, 2]);
    expect(overMemory(holds, 9)).toEqual([1, 2, 0]);
  });
});

describe('freshness budgets', () => {
  const base = {
    KAFKA_BROKERS: '127.0.0.1:19092',
    SCHEMA_REGISTRY_URL: 'http://127.0.0.1:18081/apis/ccompat/v7',
    MONGODB_URI: 'mongodb://127.0.0.1:27117',
  };

  it.each([
    ['minute', 5000],
    ['hour', 60_000],
    ['day', 60_000],
    ['segments', 0],
  ] as const)('%s defaults to %i ms; FRESHNESS_BUDGET_MS overrides it', (level, ms) => {
    expect(DEFAULT_FRESHNESS_BUDGET_MS[level]).toBe(ms);
    expect(freshnessBudgetMs(parseWorkerEnv({ ...base, ROLLUP_LEVEL: level }))).toBe(ms);
    const set = parseWorkerEnv({ ...base, ROLLUP_LEVEL: level, FRESHNESS_BUDGET_MS: '1500' });
    expect(freshnessBudgetMs(set)).toBe(1500);
  });

  it('refuses a budget that is not a whole number of ms up to an hour, naming the variable', () => {
    for (const bad of ['-1', 'soon', '2.5', '3600001'])
      expect(() =>
        parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'hour', FRESHNESS_BUDGET_MS: bad }),
      ).toThrow(/FRESHNESS_BUDGET_MS/);
    expect(parseWorkerEnv({ ...base, ROLLUP_LEVEL: 'hour' }).HELD_MAX_BYTES).toBe(
      128 * 1024 * 1024,
    );
  });
});
