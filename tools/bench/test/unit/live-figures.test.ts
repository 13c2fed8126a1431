import { describe, expect, it } from '@jest/globals';
import { cellLabel, idealOperations } from '../../src/live/live-figures.js';

describe('live grid figures', () => {
  it('labels cells by series and rate per series', () => {
    expect(cellLabel({ series: 10_000, perSecond: 1 })).toBe('10,000 × 1/s');
    expect(cellLabel({ series: 500, perSecond: 10 })).toBe('500 × 10/s');
    expect(cellLabel({ series: 10_000, perSecond: 0.1 })).toBe('10,000 × 1/10 s');
    expect(cellLabel({ series: 20_000, perSecond: 1 / 60 })).toBe('20,000 × 1/min');
  });

  it.each([
    // Dense: every series writes once per 5 s window, 12 windows a minute, a twelfth straddling.
    [
      '10k × 1/s, minute, 5 s',
      { series: 10_000, perSecond: 1 },
      'minute',
      60,
      5000,
      0,
      10_000 * 12 * (1 + 5 / 60),
    ],
    // Once a minute: a series has a tick in one 5 s window of twelve.
    [
      '20k × 1/min, minute, 5 s',
      { series: 20_000, perSecond: 1 / 60 },
      'minute',
      60,
      5000,
      0,
      20_000 * 12 * (5 / 60) * (1 + 5 / 60),
    ],
    // The hour level over a minute's run: one window; the markers add one write each.
    [
      '500 × 10/s, hour, 60 s',
      { series: 500, perSecond: 10 },
      'hour',
      60,
      60_000,
      300,
      500 * (1 + 60 / 3600) + 300,
    ],
  ] as const)(
    'one write per bucket per budget window: %s',
    (_name, cell, level, seconds, budget, markers, expected) => {
      expect(idealOperations(cell, level, seconds, budget, markers)).toBeCloseTo(expected, 6);
    },
  );
});
