import { describe, expect, it } from '@jest/globals';
import type { Level } from '@tickertape/buckets';
import {
  QueryErrorCode,
  chooseResolution,
  levelResolution,
  pointCount,
  sourceFor,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const ALL: Level[] = ['minute', 'hour', 'day'];

describe('pointCount', () => {
  it.each([
    [0, M, S, 60],
    [500, M + 500, S, 61], // a ragged range touches one more second
    [0, H, M, 60],
    [30 * S, 90 * S, M, 2],
    [0, 1, D, 1],
  ])('[%i, %i) at %i ms → %i points', (from, to, step, count) => {
    expect(pointCount(from, to, step)).toBe(count);
  });
});

describe('chooseResolution: the finest width that fits, from the cheapest source', () => {
  it.each<[string, string, string, number, number, string, string]>([
    ['10 minutes', '2026-11-21T10:00:00Z', '2026-11-21T10:10:00Z', 1000, S, 'minute', 'sub'],
    [
      '10 minutes, 300 points',
      '2026-11-21T10:00:00Z',
      '2026-11-21T10:10:00Z',
      300,
      2 * S,
      'minute',
      'sub',
    ],
    ['one hour', '2026-11-21T10:00:00Z', '2026-11-21T11:00:00Z', 300, 15 * S, 'minute', 'sub'],
    ['six hours', '2026-11-21T06:00:00Z', '2026-11-21T12:00:00Z', 400, M, 'hour', 'sub'],
    ['one day', '2026-11-21T00:00:00Z', '2026-11-22T00:00:00Z', 300, 5 * M, 'hour', 'sub'],
    ['one week', '2026-11-14T00:00:00Z', '2026-11-21T00:00:00Z', 300, H, 'day', 'sub'],
    ['one year', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 400, D, 'day', 'slot'],
    ['three years', '2024-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 400, 7 * D, 'day', 'slot'],
  ])('%s → %i ms from %s/%s', (_name, from, to, maxPoints, step, level, detail) => {
    expect(chooseResolution(at(from), at(to), maxPoints, ALL)).toEqual({
      stepMs: step,
      source: { level, detail },
    });
  });

  it('falls back to the levels that run: minute points from minute totals without an hour level', () => {
    expect(sourceFor(M, ['minute', 'day'])).toEqual({ level: 'minute', detail: 'slot' });
    expect(sourceFor(H, ['minute'])).toEqual({ level: 'minute', detail: 'slot' });
    expect(sourceFor(S, ['hour', 'day'])).toBeUndefined();
    expect(chooseResolution(0, 10 * M, 1000, ['hour', 'day'])).toEqual({
      stepMs: M,
      source: { level: 'hour', detail: 'sub' },
    });
  });

  it('refuses a range no width can draw in the points asked for', () => {
    expect(() => chooseResolution(0, 400 * 30 * D, 10, ALL)).toThrow(
      expect.objectContaining({ code: QueryErrorCode.TooManyPoints, retriable: false }),
    );
  });

  it.each<[Level, 'slot' | 'sub', number]>([
    ['minute', 'sub', S],
    ['minute', 'slot', M],
    ['hour', 'sub', M],
    ['hour', 'slot', H],
    ['day', 'sub', H],
    ['day', 'slot', D],
  ])('an explicit %s/%s read is %i ms wide', (level, detail, step) => {
    expect(levelResolution(level, detail).stepMs).toBe(step);
  });
});
