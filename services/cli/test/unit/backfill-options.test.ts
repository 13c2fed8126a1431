import { describe, expect, it } from '@jest/globals';
import { InvalidArgumentError } from 'commander';
import { levelsArgument, retentionArgument } from '../../src/store-arguments.js';
import { formatRetention, refusalLine } from '../../src/commands/backfill/format.js';

const M = 60_000;
const H = 60 * M;
const D = 24 * H;

describe('backfill arguments and report', () => {
  it('reads --levels and --retention', () => {
    expect(levelsArgument('segments, hour')).toEqual(['hour', 'segments']);
    expect(() => levelsArgument('week')).toThrow(InvalidArgumentError);
    expect(retentionArgument('minute=14d', { hour: 1 })).toEqual({ hour: 1, minute: 14 * D });
    for (const bad of ['minute', 'week=1d', 'minute=14', 'minute=0d', '=1d'])
      expect(() => retentionArgument(bad)).toThrow(InvalidArgumentError);
  });

  it('says why a store refused ticks', () => {
    expect(refusalLine({ store: 'minute', ticks: 1234, retentionMs: 7 * D })).toBe(
      "minute: 1,234 ticks refused: older than the minute level's retention (7 d) — its partitions are dropped",
    );
    expect(refusalLine({ store: 'segments', ticks: 1, retentionMs: 7 * D })).toBe(
      "segments: 1 tick refused: older than the segment store's retention (7 d) — its days are dropped",
    );
    expect(formatRetention(5 * 365 * D)).toBe('5 y');
    expect(formatRetention(90 * D)).toBe('90 d');
    expect(formatRetention(36 * H)).toBe('36 h');
    expect(formatRetention(90 * M)).toBe('90 min');
  });
});
