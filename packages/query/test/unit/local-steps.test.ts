import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  QueryErrorCode,
  checkTimeZone,
  isTimeZone,
  localIso,
  localSteps,
  onUtcGrid,
  parseTimeArgument,
  stepGaps,
  wallToInstant,
  zoneRules,
  type ZoneRules,
} from '../../src/index.js';

const at = (iso: string) => Date.parse(iso);
const M = 60_000;
const H = 60 * M;
const D = 24 * H;

/** Steps as [UTC start, hours long], what the tables read. */
const table = (steps: { start: number; end: number }[]) =>
  steps.map((s) => [new Date(s.start).toISOString(), (s.end - s.start) / H] as const);

describe('local days: midnight to midnight, 23 or 25 hours across DST', () => {
  it.each<[string, string, string, string, [string, number][]]>([
    [
      'America/Los_Angeles, the spring week (DST from 2026-03-08 02:00)',
      'America/Los_Angeles',
      '2026-03-05T08:00:00Z',
      '2026-03-12T07:00:00Z',
      [
        ['2026-03-05T08:00:00.000Z', 24],
        ['2026-03-06T08:00:00.000Z', 24],
        ['2026-03-07T08:00:00.000Z', 24],
        ['2026-03-08T08:00:00.000Z', 23],
        ['2026-03-09T07:00:00.000Z', 24],
        ['2026-03-10T07:00:00.000Z', 24],
        ['2026-03-11T07:00:00.000Z', 24],
      ],
    ],
    [
      'America/Los_Angeles, the fall week (standard time from 2026-11-01 02:00)',
      'America/Los_Angeles',
      '2026-10-29T07:00:00Z',
      '2026-11-05T08:00:00Z',
      [
        ['2026-10-29T07:00:00.000Z', 24],
        ['2026-10-30T07:00:00.000Z', 24],
        ['2026-10-31T07:00:00.000Z', 24],
        ['2026-11-01T07:00:00.000Z', 25],
        ['2026-11-02T08:00:00.000Z', 24],
        ['2026-11-03T08:00:00.000Z', 24],
        ['2026-11-04T08:00:00.000Z', 24],
      ],
    ],
    [
      'Asia/Kolkata: midnight is 18:30 UTC, no DST',
      'Asia/Kolkata',
      '2026-03-07T18:30:00Z',
      '2026-03-10T18:30:00Z',
      [
        ['2026-03-07T18:30:00.000Z', 24],
        ['2026-03-08T18:30:00.000Z', 24],
        ['2026-03-09T18:30:00.000Z', 24],
      ],
    ],
    [
      'Australia/Lord_Howe: a half-hour DST shift makes a 23.5-hour day',
      'Australia/Lord_Howe',
      '2026-10-02T13:30:00Z',
      '2026-10-05T13:00:00Z',
      [
        ['2026-10-02T13:30:00.000Z', 24],
        ['2026-10-03T13:30:00.000Z', 23.5],
        ['2026-10-04T13:00:00.000Z', 24],
      ],
    ],
    [
      'America/St_Johns in 2008: the clock fell back at 00:01, so midnight came twice; one day of 25 hours',
      'America/St_Johns',
      '2008-11-01T02:30:00Z',
      '2008-11-04T03:30:00Z',
      [
        ['2008-11-01T02:30:00.000Z', 24],
        ['2008-11-02T02:30:00.000Z', 25],
        ['2008-11-03T03:30:00.000Z', 24],
      ],
    ],
    [
      'a range cut mid-day keeps the whole steps it touches',
      'America/Los_Angeles',
      '2026-03-08T20:00:00Z',
      '2026-03-09T12:00:00Z',
      [
        ['2026-03-08T08:00:00.000Z', 23],
        ['2026-03-09T07:00:00.000Z', 24],
      ],
    ],
  ])('%s', (_name, zone, from, to, expected) => {
    expect(table(localSteps(at(from), at(to), D, zoneRules(zone)))).toEqual(expected);
  });
});

describe('local hours', () => {
  it('Los Angeles: 23 hours on the spring day, 25 on the fall day, each one real hour', () => {
    const la = zoneRules('America/Los_Angeles');
    const spring = localSteps(at('2026-03-08T08:00:00Z'), at('2026-03-09T07:00:00Z'), H, la);
    const fall = localSteps(at('2026-11-01T07:00:00Z'), at('2026-11-02T08:00:00Z'), H, la);
    expect(spring).toHaveLength(23);
    expect(fall).toHaveLength(25);
    // Whole UTC hours: the read is the UTC one.
    expect(onUtcGrid(spring, H)).toBe(true);
    expect(onUtcGrid(fall, H)).toBe(true);
    // 01:00 is on the clock twice on the fall day: two steps, an hour apart.
    expect(fall.slice(1, 3).map((s) => localIso(s.start, la.offsetAt(s.start)))).toEqual([
      '2026-11-01T01:00:00.000-07:00',
      '2026-11-01T01:00:00.000-08:00',
    ]);
  });

  it('Kolkata: hours start at half past UTC, off the UTC grid', () => {
    const steps = localSteps(
      at('2026-03-08T00:00:00Z'),
      at('2026-03-08T03:00:00Z'),
      H,
      zoneRules('Asia/Kolkata'),
    );
    expect(table(steps)).toEqual([
      ['2026-03-07T23:30:00.000Z', 1],
      ['2026-03-08T00:30:00.000Z', 1],
      ['2026-03-08T01:30:00.000Z', 1],
      ['2026-03-08T02:30:00.000Z', 1],
    ]);
    expect(onUtcGrid(steps, H)).toBe(false);
    // Its 30-minute steps are UTC's.
    expect(
      onUtcGrid(
        localSteps(
          at('2026-03-08T00:00:00Z'),
          at('2026-03-09T00:00:00Z'),
          30 * M,
          zoneRules('Asia/Kolkata'),
        ),
        30 * M,
      ),
    ).toBe(true);
  });

  it.each<[string, string, string, [string, number][]]>([
    [
      'Lord Howe springs forward 30 minutes at 02:00: a 30-minute local hour',
      '2026-10-03T14:30:00Z',
      '2026-10-03T17:00:00Z',
      [
        ['2026-10-03T14:30:00.000Z', 1],
        ['2026-10-03T15:30:00.000Z', 0.5],
        ['2026-10-03T16:00:00.000Z', 1],
      ],
    ],
    [
      'Lord Howe falls back 30 minutes at 02:00: a 90-minute local hour',
      '2026-04-04T13:00:00Z',
      '2026-04-04T16:30:00Z',
      [
        ['2026-04-04T13:00:00.000Z', 1],
        ['2026-04-04T14:00:00.000Z', 1.5],
        ['2026-04-04T15:30:00.000Z', 1],
      ],
    ],
  ])('%s', (_name, from, to, expected) => {
    expect(table(localSteps(at(from), at(to), H, zoneRules('Australia/Lord_Howe')))).toEqual(
      expected,
    );
  });
});

describe('the pure math on given offsets', () => {
  /** A zone at +1 h that moves to +2 h at `change`: integer rules, no Intl. */
  const shifted = (change: number): Pick<ZoneRules, 'offsetAt' | 'transitions'> => ({
    offsetAt: (ms) => (ms < change ? H : 2 * H),
    transitions: (from, to) =>
      change >= from && change < to ? [{ atMs: change, before: H, after: 2 * H }] : [],
  });

  it.each<[string, number, number, number, [number, number][]]>([
    [
      'UTC+1 days',
      10 * D,
      12 * D,
      D,
      [
        [10 * D - H, 11 * D - H],
        [11 * D - H, 12 * D - H],
        [12 * D - H, 13 * D - H],
      ],
    ],
    [
      'a week of 7-day steps counts from 1970-01-01 local',
      7 * D,
      8 * D,
      7 * D,
      [[7 * D - H, 14 * D - H]],
    ],
    [
      '15-minute steps are UTC ones',
      0,
      30 * M,
      15 * M,
      [
        [0, 15 * M],
        [15 * M, 30 * M],
      ],
    ],
  ])('%s', (_name, from, to, step, expected) => {
    const steps = localSteps(from, to, step, shifted(100 * D));
    expect(steps.map((s) => [s.start, s.end])).toEqual(expected);
  });

  it('a forward jump over midnight starts the day at the jump', () => {
    // At 23:30 local (+1 h) the clock jumps to 00:30 (+2 h): the new day starts then.
    const change = 5 * D - H - 30 * M;
    const steps = localSteps(4 * D, 6 * D, D, shifted(change));
    expect(steps.map((s) => [s.start, s.end])).toEqual([
      [4 * D - H, change],
      [change, 6 * D - 2 * H],
      [6 * D - 2 * H, 7 * D - 2 * H],
    ]);
  });

  it('a backward jump over midnight starts no second day: the day lasts 25 hours', () => {
    // At 00:30 local (+2 h) the clock goes back to 23:30 (+1 h): midnight comes again, no new day.
    const change = 5 * D - 2 * H + 30 * M;
    const back: Pick<ZoneRules, 'offsetAt' | 'transitions'> = {
      offsetAt: (ms) => (ms < change ? 2 * H : H),
      transitions: (from, to) =>
        change >= from && change < to ? [{ atMs: change, before: 2 * H, after: H }] : [],
    };
    expect(localSteps(4 * D, 6 * D, D, back).map((s) => [s.start, s.end])).toEqual([
      [4 * D - 2 * H, 5 * D - 2 * H],
      [5 * D - 2 * H, 6 * D - H],
      [6 * D - H, 7 * D - H],
    ]);
    // An hour step is cut by it: the clock reads hour 23 again from the jump on.
    const hours = localSteps(5 * D - 3 * H, 5 * D, H, back).map((s) => [s.start, s.end]);
    expect(hours).toContainEqual([5 * D - 2 * H, change]);
    expect(hours).toContainEqual([change, 5 * D - H]);
  });

  it('refuses a width without local steps', () => {
    expect(() => localSteps(0, D, 7 * H, shifted(D))).toThrow(
      expect.objectContaining({ code: QueryErrorCode.NoResolution }),
    );
  });
});

describe('gaps of local steps', () => {
  it('merges adjacent empty steps and clips to the range', () => {
    const steps = [
      { start: 0, end: 10 },
      { start: 10, end: 25 },
      { start: 25, end: 30 },
      { start: 30, end: 40 },
    ];
    expect(stepGaps(steps, new Set([25]), 5, 35)).toEqual([
      { from: 5, to: 25 },
      { from: 30, to: 35 },
    ]);
  });
});

describe('time zones', () => {
  it.each([
    ['America/Los_Angeles', true],
    ['Asia/Kolkata', true],
    ['UTC', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
  ])('%s known: %s', (zone, known) => {
    expect(isTimeZone(zone)).toBe(known);
  });

  it('refuses an unknown zone naming the parameter', () => {
    expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(
      expect.objectContaining({
        code: QueryErrorCode.InvalidTimeZone,
        message: expect.stringContaining('tz: unknown time zone "Mars/Olympus_Mons"'),
      }),
    );
  });

  it('finds the transitions of a year', () => {
    const changes = zoneRules('America/Los_Angeles').transitions(
      at('2026-01-01T00:00:00Z'),
      at('2027-01-01T00:00:00Z'),
    );
    expect(changes).toEqual([
      { atMs: at('2026-03-08T10:00:00Z'), before: -8 * H, after: -7 * H },
      { atMs: at('2026-11-01T09:00:00Z'), before: -7 * H, after: -8 * H },
    ]);
    expect(zoneRules('Asia/Kolkata').transitions(0, at('2030-01-01T00:00:00Z'))).toEqual([]);
  });

  it.each([
    [at('2026-03-08T08:00:00Z'), -8 * H, '2026-03-08T00:00:00.000-08:00'],
    [at('2026-03-07T18:30:00Z'), 5.5 * H, '2026-03-08T00:00:00.000+05:30'],
    [0, 0, '1970-01-01T00:00:00.000+00:00'],
  ])('localIso(%s, %s) = %s', (ms, offset, iso) => {
    expect(localIso(ms, offset)).toBe(iso);
  });
});

describe("wall times: what a zone's clock reads, as an instant", () => {
  it.each<[string, string, string, string]>([
    ['a local midnight', 'America/Los_Angeles', '2026-03-08', '2026-03-08T08:00:00.000Z'],
    [
      'after the spring change',
      'America/Los_Angeles',
      '2026-03-09T00:00',
      '2026-03-09T07:00:00.000Z',
    ],
    [
      'a skipped time lands after the jump',
      'America/Los_Angeles',
      '2026-03-08T02:30',
      '2026-03-08T10:30:00.000Z',
    ],
    [
      'a repeated time is its first reading',
      'America/Los_Angeles',
      '2026-11-01T01:30',
      '2026-11-01T08:30:00.000Z',
    ],
    ['Kolkata midnight', 'Asia/Kolkata', '2026-03-08', '2026-03-07T18:30:00.000Z'],
    [
      'Lord Howe inside its half-hour gap',
      'Australia/Lord_Howe',
      '2026-10-04T02:15:30.250',
      '2026-10-03T15:45:30.250Z',
    ],
  ])('%s: %s %s', (_name, zone, wall, instant) => {
    const wallMs = Date.parse(`${wall.length === 10 ? `${wall}T00:00` : wall}Z`);
    expect(new Date(wallToInstant(wallMs, zoneRules(zone))).toISOString()).toBe(instant);
    // As `from`/`to` without an offset are read in tz, by the CLI and the API alike.
    expect(new Date(parseTimeArgument(wall, { nowMs: 0, tz: zone })).toISOString()).toBe(instant);
  });

  it.each<[string, string]>([
    ['2026-03-08T06:00Z', '2026-03-08T06:00:00.000Z'],
    ['2026-03-08T06:00+05:30', '2026-03-08T00:30:00.000Z'],
    ['1795255200000', '2026-11-21T10:00:00.000Z'],
  ])('reads %p, with its offset or in epoch ms, whatever tz says', (text, instant) => {
    expect(new Date(parseTimeArgument(text, { nowMs: 0, tz: 'Asia/Kolkata' })).toISOString()).toBe(
      instant,
    );
  });
});

describe('local steps, properties over zones, ranges and widths', () => {
  const ZONES = [
    'America/Los_Angeles',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'Europe/London',
    'America/St_Johns',
    'Asia/Kathmandu',
    'Pacific/Chatham',
    'UTC',
  ];
  const WIDTHS = [15 * M, 30 * M, H, 3 * H, D, 7 * D];
  const cases = fc.record({
    zone: fc.constantFrom(...ZONES),
    stepMs: fc.constantFrom(...WIDTHS),
    // Minutes from 1990 to 2060; ranges up to ~20 steps.
    fromMin: fc.integer({ min: 10_519_200, max: 47_336_400 }),
    steps: fc.integer({ min: 1, max: 20 }),
  });

  it('tile the range: contiguous, covering it, each starting on a wall-clock multiple or a jump', () => {
    fc.assert(
      fc.property(cases, ({ zone, stepMs, fromMin, steps: count }) => {
        const rules = zoneRules(zone);
        const from = fromMin * M;
        const to = from + count * stepMs;
        const steps = localSteps(from, to, stepMs, rules);
        expect(steps[0]!.start).toBeLessThanOrEqual(from);
        expect(steps.at(-1)!.end).toBeGreaterThanOrEqual(to);
        const jumps = new Set(
          rules.transitions(from - stepMs - D, to + stepMs + D).map((c) => c.atMs),
        );
        steps.forEach((step, i) => {
          if (i > 0) expect(step.start).toBe(steps[i - 1]!.end);
          expect(step.end).toBeGreaterThan(step.start);
          const wall = step.start + rules.offsetAt(step.start);
          expect(((wall % stepMs) + stepMs) % stepMs === 0 || jumps.has(step.start)).toBe(true);
          // A step differs from its width by a clock change at most (here: 2 hours).
          expect(Math.abs(step.end - step.start - stepMs)).toBeLessThanOrEqual(2 * H);
        });
      }),
      { numRuns: 300 },
    );
  });
});
