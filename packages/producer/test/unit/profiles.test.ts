import { describe, expect, it } from '@jest/globals';
import { seriesKey, validateTick, type Tick } from '@tickertape/tick';
import {
  CONDITIONS,
  createProfile,
  PROFILE_NAMES,
  SeededRandom,
  stockSymbol,
  stocksProfile,
  trafficProfile,
  type LoadProfile,
} from '../../src/index.js';

const T0 = Date.UTC(2026, 10, 21, 9, 30);

function take(profile: LoadProfile, count: number): Tick[] {
  return Array.from({ length: count }, (_, i) => profile.next(T0 + i * 10));
}

describe('SeededRandom', () => {
  it('repeats its sequence for a seed and stays in range', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const values = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new SeededRandom(43).next()).not.toBe(values[0]);
  });

  it('draws integers within inclusive bounds, reaching both', () => {
    const random = new SeededRandom(7);
    const seen = new Set(Array.from({ length: 500 }, () => random.int(2, 5)));
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
  });

  it('draws a standard normal: mean near 0, deviation near 1', () => {
    const random = new SeededRandom(1);
    const xs = Array.from({ length: 20_000 }, () => random.gaussian());
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(sd - 1)).toBeLessThan(0.05);
    expect(xs.every(Number.isFinite)).toBe(true);
  });
});

describe.each(PROFILE_NAMES)('the %s profile', (name) => {
  it('gives the same ticks for the same seed, and others for another seed', () => {
    const first = take(createProfile(name, { series: 7, seed: 11 }), 300);
    expect(take(createProfile(name, { series: 7, seed: 11 }), 300)).toEqual(first);
    expect(take(createProfile(name, { series: 7, seed: 12 }), 300)).not.toEqual(first);
  });

  it('visits its series round robin, one reading per series per round', () => {
    const profile = createProfile(name, { series: 5, seed: 3 });
    const keys = profile.series.map((s) => seriesKey(s.metric, s.tags));
    expect(new Set(keys).size).toBe(5);
    const ticks = take(profile, 15);
    expect(ticks.map((t) => seriesKey(t.metric, t.tags))).toEqual([...keys, ...keys, ...keys]);
  });

  it('makes only valid ticks, stamped with the time it is given', () => {
    const profile = createProfile(name, { series: 20, seed: 5 });
    for (const [i, tick] of take(profile, 2000).entries()) {
      expect(validateTick(tick)).toMatchObject({ ts: T0 + i * 10 });
    }
  });

  it.each([
    [{ series: 0, seed: 1 }, /series/],
    [{ series: 2.5, seed: 1 }, /series/],
    [{ series: 2, seed: 0.5 }, /seed/],
  ])('refuses %j', (options, message) => {
    expect(() => createProfile(name, options)).toThrow(message);
  });
});

describe('stocks', () => {
  it.each([
    [0, 'ACME'],
    [1, 'GLBX'],
    [15, 'MSVD'],
    [16, 'ACME2'],
    [33, 'GLBX3'],
  ])('names series %i %s', (index, symbol) => {
    expect(stockSymbol(index)).toBe(symbol);
  });

  it('quotes symbol and exchange as tags, price and volume as fields', () => {
    const ticks = take(stocksProfile({ series: 40, seed: 9 }), 40);
    expect(new Set(ticks.map((t) => t.tags.symbol)).size).toBe(40);
    for (const tick of ticks) {
      expect(tick.metric).toBe('stock.tick');
      expect(Object.keys(tick.tags).sort()).toEqual(['exchange', 'symbol']);
      expect(['NYSE', 'NASDAQ', 'LSE', 'XETRA']).toContain(tick.tags.exchange);
      expect(Object.keys(tick.fields).sort()).toEqual(['price', 'volume']);
      expect(Number.isInteger(tick.fields.volume)).toBe(true);
      expect(tick.fields.volume).toBeGreaterThanOrEqual(1);
    }
  });

  it('walks each price in small steps, in whole cents, never below a cent', () => {
    const profile = stocksProfile({ series: 3, seed: 21 });
    const ticks = take(profile, 3000);
    for (let s = 0; s < 3; s += 1) {
      const prices = ticks.filter((_, i) => i % 3 === s).map((t) => t.fields.price!);
      expect(new Set(prices).size).toBeGreaterThan(100); // it moves
      for (let i = 1; i < prices.length; i += 1) {
        expect(prices[i]).toBeGreaterThanOrEqual(0.01);
        expect(Math.round(prices[i]! * 100) / 100).toBe(prices[i]);
        expect(Math.abs(Math.log(prices[i]! / prices[i - 1]!))).toBeLessThan(0.01);
      }
    }
  });
});

describe('traffic', () => {
  it('tags sensors and segments as in seed 001, with speed, travel time and conditions', () => {
    const profile = trafficProfile({ series: 64, seed: 4 });
    const ticks = take(profile, 64);
    expect(new Set(ticks.map((t) => t.tags.segment)).size).toBe(64);
    for (const [i, tick] of ticks.entries()) {
      expect(tick.metric).toBe('traffic');
      expect(tick.tags).toEqual({
        sensor: String(900_000 + i),
        segment: expect.stringMatching(/^I\d+_mile\d+$/),
      });
      expect(Object.keys(tick.fields).sort()).toEqual(['speed', 'travel_time']);
      expect(CONDITIONS).toContain(tick.strings.conditions);
    }
  });

  it('keeps speeds plausible and travel time consistent with them', () => {
    const ticks = take(trafficProfile({ series: 10, seed: 8 }), 5000);
    for (const { fields } of ticks) {
      expect(fields.speed).toBeGreaterThanOrEqual(3);
      expect(fields.speed).toBeLessThan(100);
      expect(Number.isInteger(fields.travel_time)).toBe(true);
      // 0.5–2 miles at the reported speed, in seconds (rounded).
      expect(fields.travel_time).toBeGreaterThanOrEqual(Math.floor((0.5 / fields.speed!) * 3600));
      expect(fields.travel_time).toBeLessThanOrEqual(Math.ceil((2 / fields.speed!) * 3600));
    }
    const conditions = new Set(ticks.map((t) => t.strings.conditions));
    expect(conditions.size).toBeGreaterThan(1); // the weather changes
  });
});
