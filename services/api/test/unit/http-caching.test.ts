import { describe, expect, it } from '@jest/globals';
import {
  cacheControl,
  canonicalQuery,
  entityTag,
  reuseUntil,
  type CachingPolicy,
} from '../../src/http-caching.js';

const policy: CachingPolicy = {
  scope: 'public',
  finalMaxAgeS: 86_400,
  budgetsMs: { minute: 5_000, hour: 60_000, day: 60_000 },
};
const T = Date.UTC(2026, 10, 26, 10, 0, 30);

describe('reuseUntil', () => {
  it.each<[string, Parameters<typeof reuseUntil>[0], number]>([
    ['a final answer: for ever (its key changes instead)', { openLevels: [] }, Infinity],
    ['open at the hour level: one hour budget', { openLevels: ['hour'] }, T + 60_000],
    ['open at minute and hour: the shorter budget', { openLevels: ['hour', 'minute'] }, T + 5_000],
    [
      'a range that moves sooner than its budget: until it moves',
      { openLevels: ['hour'], rangeMovesAtMs: T + 30_000 },
      T + 30_000,
    ],
    [
      'a relative range over final data: still until it moves',
      { openLevels: [], rangeMovesAtMs: T + 1_000 },
      T + 1_000,
    ],
    [
      'a range that has moved already: not at all',
      { openLevels: ['hour'], rangeMovesAtMs: T - 1 },
      T,
    ],
  ])('%s', (_case, freshness, until) => {
    expect(reuseUntil(freshness, policy, T)).toBe(until);
  });
});

describe('cacheControl', () => {
  it.each<[string, number, number, CachingPolicy, string]>([
    ['final', Infinity, T, policy, 'public, max-age=86400, immutable'],
    [
      'final, private',
      Infinity,
      T,
      { ...policy, scope: 'private' },
      'private, max-age=86400, immutable',
    ],
    ['open, a budget left', T + 60_000, T, policy, 'public, max-age=60, stale-while-revalidate=60'],
    ['open, rounded down', T + 59_999, T, policy, 'public, max-age=59, stale-while-revalidate=59'],
    [
      'open, less than a second left',
      T + 400,
      T,
      policy,
      'public, max-age=0, stale-while-revalidate=1',
    ],
    [
      'open, kept past its time',
      T,
      T + 5_000,
      policy,
      'public, max-age=0, stale-while-revalidate=1',
    ],
  ])('%s', (_case, until, now, given, header) => {
    expect(cacheControl(until, given, now)).toBe(header);
  });
});

describe('canonicalQuery', () => {
  it('is the same for the same parameters in any order, nested too', () => {
    expect(canonicalQuery({ b: 1, a: { y: 'x', x: ['b', 'a'] } })).toBe(
      canonicalQuery({ a: { x: ['b', 'a'], y: 'x' }, b: 1 }),
    );
  });

  it('keeps array order and tells values apart', () => {
    expect(canonicalQuery({ series: ['a', 'b'] })).not.toBe(canonicalQuery({ series: ['b', 'a'] }));
    expect(canonicalQuery({ from: 1 })).not.toBe(canonicalQuery({ from: '1' }));
  });
});

describe('entityTag', () => {
  it('is a quoted digest of the bytes: equal bodies, equal tags', () => {
    expect(entityTag('{"a":1}')).toMatch(/^"[A-Za-z0-9+/]{27}="$/);
    expect(entityTag('{"a":1}')).toBe(entityTag(Buffer.from('{"a":1}')));
    expect(entityTag('{"a":1}')).not.toBe(entityTag('{"a":2}'));
  });
});
