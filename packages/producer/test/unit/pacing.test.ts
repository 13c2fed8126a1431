import { describe, expect, it } from '@jest/globals';
import { achievedRate, msUntilDue, ticksDue, totalTicks } from '../../src/index.js';

describe('pacing', () => {
  it.each([
    [2000, 30_000, 60_000],
    [100, 2000, 200],
    [3, 500, 2], // 1.5 rounds to 2
    [1, 0, 0],
  ])('a run at %p/s for %p ms sends %p ticks', (rate, durationMs, total) => {
    expect(totalTicks(rate, durationMs)).toBe(total);
  });

  it.each([
    // rate, elapsed, total, due
    [100, 0, 200, 1], // tick 0 at once
    [100, 9, 200, 1],
    [100, 10, 200, 2],
    [100, 1999, 200, 200],
    [100, 5000, 200, 200], // capped at the run's total
    [100, -5, 200, 0],
    [0.5, 2000, 10, 2],
  ])('at %p/s, %p ms in, of %p: %p due', (rate, elapsed, total, due) => {
    expect(ticksDue(rate, elapsed, total)).toBe(due);
  });

  it.each([
    // rate, generated, elapsed, wait
    [100, 1, 0, 10],
    [100, 1, 4, 6],
    [100, 3, 35, 0], // behind schedule: no wait
    [3, 1, 0, 334],
  ])(
    'at %p/s with %p generated %p ms in, the next is due in %p ms',
    (rate, generated, elapsed, wait) => {
      expect(msUntilDue(rate, generated, elapsed)).toBe(wait);
    },
  );

  it('is consistent: after waiting msUntilDue the next tick is due', () => {
    for (const rate of [1, 7, 100, 333, 2000, 50_000]) {
      for (let generated = 1; generated < 50; generated += 1) {
        const wait = msUntilDue(rate, generated, 0);
        expect(ticksDue(rate, wait, 1e9)).toBeGreaterThan(generated);
      }
    }
  });

  it.each([
    [200, 2000, 100],
    [0, 1000, 0],
    [5, 0, 0],
  ])('%p ticks in %p ms is %p/s', (ticks, elapsed, rate) => {
    expect(achievedRate(ticks, elapsed)).toBe(rate);
  });
});
