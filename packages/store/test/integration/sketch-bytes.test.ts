/**
 * What quantile sketches cost on disk: stored bytes per tick of one series with one field, at
 * one tick a second and one tick a minute, with sketches off and on, written through the real
 * writers of every level (the level policies the benchmark uses: everything full, and at one
 * tick a minute the suggested skip-minute, compact-hour). Prints the figures (the lead's
 * benchmark takes them up) and holds the issue's target: sketches at most double the bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LEVELS, type FoldInput, type Level, type LevelMode } from '@tickertape/buckets';
import type { RollupStore } from '../../src/index.js';
import { StoreStack } from '../support/store-stack.js';

const T0 = Date.UTC(2026, 10, 21, 0, 0, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;

interface Scenario {
  name: string;
  everyMs: number;
  ticks: number;
  modes: Partial<Record<Level, LevelMode>>;
}

const SCENARIOS: Scenario[] = [
  { name: '1 tick/s, every level full', everyMs: SECOND, ticks: 2 * 3600, modes: {} },
  { name: '1 tick/min, every level full', everyMs: MINUTE, ticks: 2 * 1440, modes: {} },
  {
    name: '1 tick/min, minute skipped, hour compact',
    everyMs: MINUTE,
    ticks: 2 * 1440,
    modes: { minute: 'skip', hour: 'compact' },
  },
];

/** A speed-like reading: a slow wave with deterministic noise, one decimal (a sensor's). */
function ticks(scenario: Scenario): FoldInput[] {
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  return Array.from({ length: scenario.ticks }, (_, i) => ({
    seriesKey: 'traffic|sensor=900006',
    metric: 'traffic',
    tags: { sensor: '900006' },
    ts: T0 + i * scenario.everyMs,
    fields: { speed: Math.round((55 + 10 * Math.sin(i / 300) + 8 * noise()) * 10) / 10 },
    strings: {},
    kafkaPartition: 0,
    offset: i,
  }));
}

async function bytesPerTick(
  store: RollupStore,
  scenario: Scenario,
  sketch: boolean,
): Promise<Record<Level | 'all', number>> {
  for (const [level, mode] of Object.entries(scenario.modes))
    await store.changeLevelPolicy(level as Level, ['traffic'], mode, T0);
  if (sketch)
    await store.changeMetricPolicy({ kind: 'sketch', metrics: ['traffic'], on: true }, T0);
  const all = ticks(scenario);
  // Flushes as a worker holds them: a freshness budget's worth (here ten minutes of ticks at most).
  const flush = Math.max(1, Math.min(600, Math.floor((10 * MINUTE) / scenario.everyMs)));
  for (const level of LEVELS) {
    const writer = store.writer(level);
    for (let i = 0; i < all.length; i += flush) await writer.apply(all.slice(i, i + flush));
  }
  const stats = (await store.storageStats()).filter((c) => c.kind === 'buckets');
  const per = (level?: Level) =>
    stats
      .filter((c) => level === undefined || c.name.startsWith(`rollup_${level}_`))
      .reduce((sum, c) => sum + c.dataBytes, 0) / all.length;
  return {
    minute: per('minute'),
    hour: per('hour'),
    day: per('day'),
    all: per(),
  };
}

describe('stored bytes per tick with sketches off and on', () => {
  let stack: StoreStack;
  beforeAll(async () => {
    stack = await StoreStack.open('sketch-bytes');
  });
  afterAll(() => stack.close());

  it.each(SCENARIOS)(
    '$name: sketches at most double the bytes',
    async (scenario) => {
      const off = await bytesPerTick((await stack.fresh()).store, scenario, false);
      const on = await bytesPerTick((await stack.fresh()).store, scenario, true);
      const round = (x: number) => Math.round(x * 10) / 10;
      const row = (name: string, figures: Record<string, number>) =>
        `${name.padEnd(4)} ${['minute', 'hour', 'day', 'all'].map((k) => `${k} ${round(figures[k]!)}`).join(', ')}`;
      console.log(
        `${scenario.name}: stored bytes per tick\n${row('off', off)}\n${row('on', on)}\nratio ${round((on.all / off.all) * 100) / 100}`,
      );
      expect(on.all).toBeGreaterThan(off.all);
      expect(on.all).toBeLessThanOrEqual(2 * off.all);
    },
    300_000,
  );
});
