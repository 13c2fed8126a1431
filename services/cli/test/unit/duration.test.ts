import { describe, expect, it } from '@jest/globals';
import { durationMs, formatDuration, parseDuration } from '../../src/duration.js';

describe('durations', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['30', 30_000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h', 3_600_000],
    [' 2s ', 2000],
    ['1d', 86_400_000],
  ])('parses %p as %p ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 's', '-1s', '0s', '2 days', '1e3'])('refuses %p', (text) => {
    expect(() => parseDuration(text)).toThrow(/duration|longer than 0/);
  });

  it('reads a bare number only in the unit it is given', () => {
    expect(durationMs('5')).toBeUndefined();
    expect(durationMs('5', 'm')).toBe(300_000);
    expect(durationMs('5h')).toBe(18_000_000);
    expect(durationMs('soon')).toBeUndefined();
  });

  it.each([
    [850, '850 ms'],
    [1234, '1.2 s'],
    [30_000, '30.0 s'],
    [125_000, '2 m 05 s'],
  ])('formats %p ms as %p', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
