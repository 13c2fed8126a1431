import { describe, expect, test } from '@jest/globals';
import { LevelPolicy } from '@tickertape/buckets';
import {
  changesFor,
  formatPolicy,
  formatSuggestions,
  suggest,
} from '../../src/commands/levels/run.js';
import { policyJson } from '../../src/commands/levels/json.js';

const density = (metric: string, perMinute: number) => ({
  metric,
  series: 10,
  buckets: 10,
  ticks: perMinute * 600,
  perMinute,
});

describe('tickertape levels suggest', () => {
  const policy = new LevelPolicy({ minute: { skip: ['mms.cpu', 'stock.tick'] } });
  const suggestions = suggest(
    [density('mms.cpu', 1), density('sensors', 6), density('stock.tick', 600)],
    policy,
  );

  test('suggests by density and shows what is set now', () => {
    expect(suggestions.map((s) => [s.metric, s.suggested, s.current.minute])).toEqual([
      ['mms.cpu', { minute: 'skip', hour: 'compact', day: 'full' }, 'skip'],
      ['sensors', { minute: 'skip', hour: 'full', day: 'full' }, 'full'],
      ['stock.tick', { minute: 'full', hour: 'full', day: 'full' }, 'skip'],
    ]);
  });

  test('lists only the changes, one command per level and mode', () => {
    expect(changesFor(suggestions)).toEqual([
      ['hour', 'compact', ['mms.cpu']],
      ['minute', 'skip', ['sensors']],
      ['minute', 'full', ['stock.tick']],
    ]);
    const text = formatSuggestions(suggestions, 24);
    expect(text).toContain('metric      series  ticks/min each  suggested (minute / hour / day)');
    expect(text).toContain('mms.cpu         10               1  skip / compact / full');
    expect(text).toContain(
      'to apply (or run again with --apply):\n  tickertape levels compact hour mms.cpu\n  tickertape levels skip minute sensors\n  tickertape levels keep minute stock.tick\n',
    );
  });

  test('says when the policy already is as suggested, or nothing was measured', () => {
    const done = suggest([density('mms.cpu', 1)], policy.with('hour', ['mms.cpu'], 'compact'));
    expect(formatSuggestions(done, 24)).toContain('the policy is as suggested\n');
    expect(formatSuggestions([], 6)).toBe(
      'no hour bucket with ticks in the last 6 whole hours: nothing to measure\n',
    );
  });
});

describe('tickertape levels', () => {
  test("shows the automatic rule's spans beside the operator's modes", () => {
    const T0 = Date.parse('2026-11-21T09:07:00Z');
    const policy = new LevelPolicy({ hour: { compact: ['x'] } })
      .withAutoSkip('mms.cpu', T0)
      .withAutoKeep('mms.cpu', T0 + 3_600_000)
      .withAutoSkip('mms.disk', T0);
    expect(formatPolicy(policy)).toBe(
      [
        'minute  skips mms.disk (sparse, automatic)',
        'hour    compact x',
        'day     keeps every metric',
        'auto    minute skips mms.cpu from 2026-11-21 09:07 until 2026-11-21 10:07 (written again since)',
        'auto    minute skips mms.disk from 2026-11-21 09:07 (sparse)',
        '',
      ].join('\n'),
    );
  });

  test('shows the metrics pinned at the minute level, as data too', () => {
    const T0 = Date.parse('2026-11-21T09:07:00Z');
    const policy = new LevelPolicy()
      .withAutoSkip('mms.cpu', T0)
      .withPinChange({ kind: 'pin', metrics: ['mms.cpu', 'mms.net'], untilMs: T0 + 600_000 });
    expect(formatPolicy(policy)).toBe(
      [
        'minute  keeps every metric',
        'hour    keeps every metric',
        'day     keeps every metric',
        'auto    minute skips mms.cpu from 2026-11-21 09:07 until 2026-11-21 09:17 (written again since)',
        'pinned  minute keeps mms.cpu, mms.net (never skipped automatically)',
        '',
      ].join('\n'),
    );
    expect(policyJson(policy)).toMatchObject({
      levels: {
        minute: { skip: [], compact: [], pinned: ['mms.cpu', 'mms.net'] },
        hour: { pinned: [] },
      },
      autoSkips: [{ metric: 'mms.cpu', fromMs: T0, untilMs: T0 + 600_000 }],
    });
  });
});
