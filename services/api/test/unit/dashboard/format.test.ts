import { describe, expect, it } from '@jest/globals';
import {
  formatDuration,
  formatExamined,
  formatLag,
  formatNumber,
  formatRawTime,
  formatStep,
  formatTime,
  fromInputValue,
  toInputValue,
} from '../../../dashboard/src/format.js';

const T = Date.UTC(2026, 10, 21, 12, 10, 5, 250);

describe("the dashboard's formats", () => {
  it.each([
    [1000, '1 s'],
    [10_000, '10 s'],
    [60_000, '1 min'],
    [300_000, '5 min'],
    [3_600_000, '1 h'],
    [86_400_000, '1 d'],
    [1500, '1500 ms'],
  ])('writes a step of %i ms as %s', (ms, text) => {
    expect(formatStep(ms)).toBe(text);
  });

  it.each([
    [850, '850 ms'],
    [42_000, '42 s'],
    [5 * 60_000 + 3000, '5 min 3 s'],
    [5 * 60_000, '5 min'],
    [2 * 3_600_000 + 10 * 60_000, '2 h 10 min'],
    [3 * 86_400_000 + 4 * 3_600_000, '3 d 4 h'],
    [-42_000, '−42 s'],
  ])('writes a duration of %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('writes instants in UTC, raw ticks to the millisecond', () => {
    expect(formatTime(T)).toBe('2026-11-21 12:10:05');
    expect(formatRawTime(T)).toBe('2026-11-21 12:10:05.250');
  });

  it.each([
    [187.456, '187.5'],
    [55.123, '55.12'],
    [0.123456, '0.1235'],
    [12_345.6, '12,346'],
    [Infinity, 'Infinity'],
  ])('writes %p with fewer decimals the larger it is: %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('writes lag and documents examined, singular for one', () => {
    expect(formatLag(null)).toBe('unknown');
    expect(formatLag(1)).toBe('1 record');
    expect(formatLag(12_000)).toBe('12,000 records');
    expect(formatExamined(1)).toBe('1 document');
    expect(formatExamined(39)).toBe('39 documents');
  });

  it('reads datetime-local values as UTC, with or without seconds', () => {
    const whole = Date.UTC(2026, 10, 21, 12, 10, 5);
    expect(toInputValue(T)).toBe('2026-11-21T12:10:05');
    expect(fromInputValue(toInputValue(whole))).toBe(whole);
    expect(fromInputValue('2026-11-21T12:10')).toBe(Date.UTC(2026, 10, 21, 12, 10));
    expect(fromInputValue('')).toBeNaN();
  });
});
