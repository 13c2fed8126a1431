import { describe, expect, test } from '@jest/globals';
import { timeVerdict } from '../../src/index.js';

const bounds = { maxLatenessMs: 6 * 3_600_000, maxFutureMs: 5 * 60_000 };
const R = Date.UTC(2026, 10, 23, 12, 0, 0);

describe('timeVerdict', () => {
  test.each([
    ['same instant', R, 'ok'],
    ['exactly at the lateness bound', R - bounds.maxLatenessMs, 'ok'],
    ['1 ms past the lateness bound', R - bounds.maxLatenessMs - 1, 'too-late'],
    ['five days before its record', R - 5 * 86_400_000, 'too-late'],
    ['exactly at the future bound', R + bounds.maxFutureMs, 'ok'],
    ['1 ms past the future bound', R + bounds.maxFutureMs + 1, 'future'],
    ['negative event time', -1, 'future'],
  ])('%s', (_name, eventTs, expected) => {
    expect(timeVerdict(eventTs, R, bounds)).toBe(expected);
  });

  test('a negative time is out of range even when the lateness bound would reach it', () => {
    expect(timeVerdict(-1, 1000, { maxLatenessMs: 10_000, maxFutureMs: 0 })).toBe('future');
  });
});
