import { describe, expect, it } from '@jest/globals';
import { LEVELS, LEVEL_SPECS, NATIVE_WIDTHS, slotStart, subSlot } from '../../src/index.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);

describe('the table of levels', () => {
  it('derives the native widths and their sources, best first, from the specs', () => {
    expect(NATIVE_WIDTHS).toEqual([
      { stepMs: SECOND, sources: [{ level: 'minute', detail: 'sub' }] },
      {
        stepMs: MINUTE,
        sources: [
          { level: 'hour', detail: 'sub' },
          { level: 'minute', detail: 'slot' },
        ],
      },
      {
        stepMs: HOUR,
        sources: [
          { level: 'day', detail: 'sub' },
          { level: 'hour', detail: 'slot' },
        ],
      },
      { stepMs: DAY, sources: [{ level: 'day', detail: 'slot' }] },
    ]);
  });

  it('holds each level a whole number of the finer level’s slots, sub-slots included', () => {
    for (const [i, level] of LEVELS.entries()) {
      const spec = LEVEL_SPECS[level];
      expect(spec.subSlots * spec.subSlotMs).toBe(spec.slotMs);
      const finer = LEVELS[i - 1];
      if (finer !== undefined) expect(spec.subSlotMs).toBe(LEVEL_SPECS[finer].slotMs);
    }
  });

  it.each([
    ['minute', '2026-11-27T07:25:38.500Z', '2026-11-27T07:25:00Z', 38],
    ['hour', '2026-11-27T07:25:38.500Z', '2026-11-27T07:00:00Z', 25],
    ['day', '2026-11-27T07:25:38.500Z', '2026-11-27T00:00:00Z', 7],
    ['day', '1969-12-31T23:59:59.999Z', '1969-12-31T00:00:00Z', 23],
  ] as const)(
    'puts %s slots at the origin (epoch): %s in %s, sub-slot %d',
    (level, ts, start, sub) => {
      expect(slotStart(level, at(ts))).toBe(at(start));
      expect(subSlot(level, at(ts))).toBe(sub);
    },
  );
});
