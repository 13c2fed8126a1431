import { describe, expect, it } from '@jest/globals';
import type { LoadResult } from '../../src/read-load/load.js';
import { sampleOf } from '../../src/read-load/load.js';
import { readTargets } from '../../src/read-load/read-load-markdown.js';
import type { ReadLoadReport } from '../../src/read-load/read-load.js';
import {
  SEED_001_MIX,
  pickRank,
  repeatShare,
  routeCount,
  routePicker,
  zipfCdf,
} from '../../src/read-load/route-mix.js';

describe('route mix', () => {
  it('has 320 routes of 50 sensors for the seed', () => {
    expect(routeCount(SEED_001_MIX)).toBe(320);
  });

  it('builds a Zipf CDF that rises to 1, heaviest first', () => {
    const cdf = zipfCdf(4, 1);
    // 1, 1/2, 1/3, 1/4 over 25/12.
    expect(cdf.map((p) => Number(p.toFixed(4)))).toEqual([0.48, 0.72, 0.88, 1]);
  });

  it.each([
    [0, 0],
    [0.4799, 0],
    [0.4801, 1],
    [0.8799, 2],
    [0.9999, 3],
  ])('puts u = %f on rank %i', (u, rank) => {
    expect(pickRank(zipfCdf(4, 1), u)).toBe(rank);
  });

  it('draws popular routes more often, the same way for a seed', () => {
    const draw = (seed: number) => {
      const pick = routePicker(SEED_001_MIX, seed);
      return Array.from({ length: 5000 }, pick);
    };
    const routes = draw(3);
    expect(draw(3)).toEqual(routes);
    const count = (r: number) => routes.filter((x) => x === r).length;
    expect(count(0)).toBeGreaterThan(count(10));
    expect(count(10)).toBeGreaterThan(count(300));
    expect(Math.max(...routes)).toBeLessThan(320);
  });

  it('counts the requests that repeat one made within the window before', () => {
    const asked = [
      { atMs: 0, key: 'a' },
      { atMs: 10, key: 'b' },
      { atMs: 50, key: 'a' },
      { atMs: 200, key: 'b' },
      { atMs: 210, key: 'b' },
    ];
    // a at 50 (40 after), b at 210 (10 after); b at 200 is 190 after: too late for 100.
    expect(repeatShare(asked, 100)).toBe(2 / 5);
    expect(repeatShare([], 100)).toBe(0);
  });
});

describe('sampleOf', () => {
  const text = [
    '# HELP x a counter',
    'x{cache="answers",result="hit"} 5',
    'x{cache="answers",result="miss"} 2',
    'x{cache="buckets",result="hit"} 7',
    'xy 100',
    'z 3',
  ].join('\n');

  it('sums the samples of a name holding every label given', () => {
    expect(sampleOf(text, 'x')).toBe(14);
    expect(sampleOf(text, 'x', ['cache="answers"'])).toBe(7);
    expect(sampleOf(text, 'x', ['cache="answers"', 'result="hit"'])).toBe(5);
    expect(sampleOf(text, 'z')).toBe(3);
    expect(sampleOf(text, 'w')).toBe(0);
  });
});

const load = (name: string, over: Partial<LoadResult>): LoadResult => ({
  name,
  requests: 1000,
  seconds: 10,
  perSecond: 100,
  p50Ms: 5,
  p99Ms: 15,
  failed: 0,
  apiCpuSeconds: 5,
  dbCpuSeconds: 1,
  dbCommands: 0,
  dbDocuments: 0,
  answers: { lookups: 0, hits: 0 },
  buckets: { lookups: 0, hits: 0 },
  proxyHits: null,
  repeatShare: 0.95,
  ...over,
});

function report(loads: LoadResult[]): ReadLoadReport {
  return {
    settings: { mix: SEED_001_MIX, durationS: 10, connections: 10, seed: 1, keep: false },
    startedAt: 0,
    finishedAt: 0,
    cores: 2,
    data: { finalHourMs: 0, finalWindows: [], ticks: 0, perTickDocs: 0, seconds: 0 },
    loads,
  };
}

describe('readTargets', () => {
  it('judges each target on ratios between loads of the run', () => {
    const targets = readTargets(
      report([
        load('health', { perSecond: 2000 }),
        load('final, caches on', { perSecond: 1200, p99Ms: 12 }),
        load('last 10 min, caches off', { perSecond: 100, apiCpuSeconds: 10, requests: 1000 }),
        load('last 10 min, caches on', {
          perSecond: 900,
          apiCpuSeconds: 3,
          requests: 9000,
          dbDocuments: 9000,
        }),
        load('last 10 min, through the proxy', { perSecond: 2500, repeatShare: 0.97 }),
      ]),
    );
    expect(targets.map((t) => t.met)).toEqual([true, true, true, true, true]);
    expect(targets[0]!.measured).toMatch(/^0\.60 ×/);
    expect(targets[2]!.measured).toMatch(/^30\.0 ×/);
  });

  it('says which are not met', () => {
    const targets = readTargets(
      report([
        load('health', { perSecond: 2000 }),
        load('final, caches on', { perSecond: 500, p99Ms: 40 }),
        load('last 10 min, caches off', { perSecond: 100 }),
        load('last 10 min, caches on', { dbDocuments: 101 * 1000 }),
        load('last 10 min, through the proxy', { perSecond: 2500, repeatShare: 0.5 }),
      ]),
    );
    expect(targets.map((t) => t.met)).toEqual([false, false, false, false, false]);
  });
});
