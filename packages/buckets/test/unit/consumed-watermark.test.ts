import { describe, expect, it } from '@jest/globals';
import { consumedWatermark, type Level } from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const MIN = 60_000;

/** A group that has consumed every record before `reached`: boundaries up to it are safe. */
function consumedUntil(reached: number) {
  const asked: number[] = [];
  return {
    asked,
    consumedUpTo: (boundary: number) => {
      asked.push(boundary);
      return Promise.resolve(boundary <= reached);
    },
  };
}

describe('consumedWatermark', () => {
  it.each<[string, Level, string, string, string, string]>([
    [
      'caught up',
      'minute',
      '2026-11-21T05:04:00Z',
      '2026-11-21T05:00:00Z',
      '2026-11-21T05:06:30Z',
      '2026-11-21T05:04:00Z',
    ],
    [
      'one slot behind',
      'minute',
      '2026-11-21T05:04:00Z',
      '2026-11-21T05:00:00Z',
      '2026-11-21T05:03:10Z',
      '2026-11-21T05:03:00Z',
    ],
    [
      'a day behind',
      'minute',
      '2026-11-21T05:04:00Z',
      '1970-01-01T00:00:00Z',
      '2026-11-20T04:59:59Z',
      '2026-11-20T04:59:00Z',
    ],
    [
      'behind the floor',
      'minute',
      '2026-11-21T05:04:00Z',
      '2026-11-21T05:00:00Z',
      '2026-11-21T04:00:00Z',
      '2026-11-21T05:00:00Z',
    ],
    [
      'hours behind',
      'hour',
      '2026-11-21T05:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-11-20T22:30:00Z',
      '2026-11-20T22:00:00Z',
    ],
    [
      'days behind',
      'day',
      '2026-11-21T00:00:00Z',
      '2026-01-01T00:00:00Z',
      '2026-11-18T12:00:00Z',
      '2026-11-18T00:00:00Z',
    ],
    [
      'wall mark below the floor',
      'hour',
      '2026-11-21T05:00:00Z',
      '2026-11-21T06:00:00Z',
      '2026-11-21T09:00:00Z',
      '2026-11-21T06:00:00Z',
    ],
  ])(
    '%s: %s, wall mark %s, floor %s, consumed to %s → %s',
    async (_name, level, wall, floor, reached, expected) => {
      const group = consumedUntil(at(reached));
      await expect(consumedWatermark(level, at(wall), at(floor), group.consumedUpTo)).resolves.toBe(
        at(expected),
      );
    },
  );

  it('asks once when the group is caught up, and a few dozen times when it is a day behind', async () => {
    const wall = at('2026-11-21T05:04:00Z');
    const caughtUp = consumedUntil(wall + MIN);
    await consumedWatermark('minute', wall, 0, caughtUp.consumedUpTo);
    expect(caughtUp.asked).toEqual([wall]);
    const behind = consumedUntil(wall - 24 * 60 * MIN);
    await consumedWatermark('minute', wall, 0, behind.consumedUpTo);
    expect(behind.asked.length).toBeLessThanOrEqual(25);
    // Never asks below the floor, whatever the stride: a negative time means "latest" to Kafka.
    expect(Math.min(...behind.asked)).toBeGreaterThan(0);
  });
});
