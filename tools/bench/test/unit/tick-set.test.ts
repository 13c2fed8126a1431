import { describe, expect, it } from '@jest/globals';
import { seriesKey } from '@tickertape/tick';
import { tickSet, tickSetRange, tickSetShape, type TickSetSpec } from '../../src/tick-set.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const spec: TickSetSpec = {
  stocks: { series: 3, perSecond: 2 },
  traffic: { series: 7, perSecond: 0.25 },
  startMs: Date.UTC(2026, 10, 21, 9, 45),
  durationMs: 30 * MINUTE,
  seed: 7,
};

describe('tickSet', () => {
  it('yields exactly the shape it announces, inside its range, in event-time order per series', () => {
    const ticks = [...tickSet(spec)];
    const shape = tickSetShape(spec);
    expect(ticks).toHaveLength(shape.total);
    expect(shape.total).toBe(3 * 2 * 1800 + 7 * 450);
    const keys = new Set(ticks.map((t) => seriesKey(t.metric, t.tags)));
    expect(keys).toEqual(new Set([...shape.stockSeries, ...shape.trafficSeries]));
    const last = new Map<string, number>();
    for (const tick of ticks) {
      expect(tick.ts).toBeGreaterThanOrEqual(shape.startMs);
      expect(tick.ts).toBeLessThan(shape.endMs);
      const key = seriesKey(tick.metric, tick.tags);
      expect(tick.ts).toBeGreaterThan(last.get(key) ?? -1);
      last.set(key, tick.ts);
    }
  });

  it('is deterministic: the same spec gives the same ticks', () => {
    expect([...tickSet(spec)].slice(0, 500)).toEqual([...tickSet(spec)].slice(0, 500));
    const other = [...tickSet({ ...spec, seed: 8 })].slice(0, 50);
    expect(other).not.toEqual([...tickSet(spec)].slice(0, 50));
  });
});

describe('tickSetRange', () => {
  it.each([
    ['just after an hour', Date.UTC(2026, 10, 21, 10, 3, 20)],
    ['mid-hour', Date.UTC(2026, 10, 21, 10, 31, 0)],
    ['just before an hour', Date.UTC(2026, 10, 21, 10, 59, 59)],
  ])('%s: ends before now, whole minutes, across an hour with 5 minutes each side', (_, now) => {
    for (const duration of [10 * MINUTE, 30 * MINUTE, 2 * HOUR]) {
      const { startMs, endMs } = tickSetRange(now, duration);
      expect(endMs - startMs).toBe(duration);
      expect(endMs).toBeLessThanOrEqual(now - 2 * MINUTE);
      expect(endMs % MINUTE).toBe(0);
      const boundary = Math.floor(endMs / HOUR) * HOUR;
      expect(boundary - 5 * MINUTE).toBeGreaterThanOrEqual(startMs);
      expect(boundary + 5 * MINUTE).toBeLessThanOrEqual(endMs);
      // Well inside the workers' 6-hour lateness bound, with room for a 10-minute run.
      expect(now - startMs).toBeLessThan(5 * HOUR);
    }
  });
});
