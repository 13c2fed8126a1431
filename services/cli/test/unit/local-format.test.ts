import { describe, expect, it } from '@jest/globals';
import { fillRange, type AnsweredPoint, type RangeResult } from '@tickertape/query';
import { pointsAnswer } from '../../src/format/answers.js';
import { render } from '../../src/format/render.js';

const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

const day = (start: string, end: string, local: string, v: number): AnsweredPoint => ({
  variance: 0,
  stddev: 0,
  coverage: { spread: 1 },
  t: at(start),
  end: at(end),
  local,
  n: 1,
  sum: v,
  min: v,
  max: v,
  open: v,
  close: v,
  avg: v,
  final: true,
});

/** Three local days of Los Angeles across the spring change, the middle one (23 hours) silent. */
const result: RangeResult = {
  series: 'traffic|sensor=la',
  field: 'speed',
  fromMs: at('2026-03-07T08:00:00Z'),
  toMs: at('2026-03-10T07:00:00Z'),
  resolution: { stepMs: 24 * H, source: { level: 'day', detail: 'slot' } },
  tz: 'America/Los_Angeles',
  points: [
    day('2026-03-07T08:00:00Z', '2026-03-08T08:00:00Z', '2026-03-07T00:00:00.000-08:00', 4),
    day('2026-03-09T07:00:00Z', '2026-03-10T07:00:00Z', '2026-03-09T00:00:00.000-07:00', 8),
  ],
  gaps: [{ from: at('2026-03-08T08:00:00Z'), to: at('2026-03-09T07:00:00Z') }],
  examined: 4,
  openLevels: [],
};

describe('the table of local steps, for people', () => {
  it('shows each row and gap at its local time, and says the steps are local', () => {
    const lines = render('table', pointsAnswer(result)).stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^2026-03-07T00:00:00\.000-08:00\s+1\s+4/);
    expect(lines[2]).toMatch(
      /^2026-03-08T00:00:00\.000-08:00\s+no data until 2026-03-09T00:00:00\.000-07:00 \(23h\)$/,
    );
    expect(lines[3]).toMatch(/^2026-03-09T00:00:00\.000-07:00\s+1\s+8/);
    expect(lines[4]).toBe(
      "traffic|sensor=la speed from 2026-03-07T08:00:00Z to 2026-03-10T07:00:00Z: 1d steps of America/Los_Angeles's local calendar (time: local start; end: UTC)",
    );
  });

  it('marks filled rows and drops the gap rows they fill', () => {
    const filled = fillRange(result, 'linear', at('2026-04-01T00:00:00Z'));
    const out = render('table', pointsAnswer(filled)).stdout.trimEnd().split('\n');
    expect(out[0]).toMatch(/\sfilled\s+gap$/);
    expect(out[2]).toMatch(/^2026-03-08T00:00:00\.000-08:00\s+6\.0426\s.*\syes$/);
    expect(out.filter((line) => line.includes('no data until'))).toEqual([]);
    expect(out).toContain(
      '2 points, 1 gap (no data, not zero) over 23h; 1 filled (linear), not data',
    );
  });
});
