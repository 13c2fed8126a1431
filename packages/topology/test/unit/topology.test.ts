import { describe, expect, it } from '@jest/globals';
import { LEVELS } from '@tickertape/buckets';
import { groupIdOf, isStore, STORES, TIME_WINDOW_DEFAULTS } from '../../src/index.js';

describe('the topology', () => {
  it('has a store per level and the segment store, each with a group of its own', () => {
    expect(STORES).toEqual([...LEVELS, 'segments']);
    expect(STORES.map(groupIdOf)).toEqual([
      'tickertape-rollup-minute',
      'tickertape-rollup-hour',
      'tickertape-rollup-day',
      'tickertape-segments',
    ]);
    expect(new Set(STORES.map(groupIdOf)).size).toBe(STORES.length);
  });

  it.each([
    ['minute', true],
    ['segments', true],
    ['week', false],
    ['', false],
  ])('%s is a store: %s', (text, expected) => {
    expect(isStore(text)).toBe(expected);
  });

  it('lets a tick be 6 h late or 5 min early by default', () => {
    expect(TIME_WINDOW_DEFAULTS).toEqual({ maxLatenessMs: 21_600_000, maxFutureMs: 300_000 });
  });
});
