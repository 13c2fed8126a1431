import { describe, expect, it } from '@jest/globals';
import type { RedriveReport } from '@tickertape/producer';
import { DEFAULT_MAX_POINTS } from '@tickertape/query';
import { formatRedrive, unknownReasons } from '../../src/commands/redrive/run.js';
import { formatTopics } from '../../src/commands/topics/run.js';
import { inputFormat } from '../../src/commands/publish/run.js';
import { CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { formatTable } from '../../src/table.js';
import { runOffline } from '../support/offline-program.js';

describe('the tickertape program', () => {
  it('shows help without reading the environment', async () => {
    const { stdout, envRead } = await runOffline(['publish', '--help']);
    expect(stdout).toContain('metric,ts,tag:<key>...,field:<key>...,string:<key>...');
    expect(envRead).toBe(false);
  });

  it('documents times, formats and exit codes in the query help', async () => {
    const { stdout } = await runOffline(['query', 'window', '--help']);
    expect(stdout.replace(/\s+/g, ' ')).toContain('relative to now: -15m, now-1h30m');
    expect(stdout.replace(/\s+/g, ' ')).toContain('Tags (--tag): key=value (or key:value)');
    expect(stdout).toContain('--format <format>');
    expect(stdout).toContain('Exit codes: 0 answered; 2 the query was refused');
  });

  it.each([['points'], ['candles']])(
    "query %s defaults --max-points to the API's maxPoints default",
    async (command) => {
      const { stdout } = await runOffline(['query', command, '--help']);
      expect(stdout.replace(/\s+/g, ' ')).toMatch(
        new RegExp(`--max-points <n> [^(]*\\(default: ${DEFAULT_MAX_POINTS}\\)`),
      );
    },
  );

  it.each([['--version'], ['-V']])('prints the package version for %s, exit 0', async (flag) => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const { stdout, error, envRead } = await runOffline([flag]);
    expect(stdout).toBe(`${manifest.version}\n`);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).exitCode).toBe(0);
    expect(envRead).toBe(false);
  });

  it.each([
    [['query', 'series', '--metric', 'm', '--bogus'], /unknown option '--bogus'/],
    [['quer'], /unknown command 'quer'/],
    [['levels', 'skip', 'week', 'm'], /unknown level week/],
    [['levels', 'skip', 'minute'], /missing required argument 'metric'/],
    [['loadgen', '--profile', 'crypto'], /Allowed choices are stocks, traffic/],
  ])('exits 2 for bad usage: %j', async (args, message) => {
    const { stderr, error } = await runOffline(args);
    expect(stderr).toMatch(message);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).exitCode).toBe(2);
  });

  it.each([
    [['loadgen'], /required option '--profile <name>' not specified/],
    [['loadgen', '--profile', 'crypto'], /Allowed choices are stocks, traffic/],
    [['loadgen', '--profile', 'stocks', '--rate', '0'], /must be above 0/],
    [['loadgen', '--profile', 'stocks', '--duration', 'soon'], /must be a duration/],
    [['publish', '--input-format', 'xml'], /Allowed choices are jsonl, csv/],
    [['publish', '--format', 'xml'], /Allowed choices are table, json/],
    [['topics', 'create', '--partitions', '0'], /must be a positive integer/],
    [['redrive', '--from-offset', '-1'], /must be an offset/],
    [['redrive', '--max', '1.5'], /must be zero or a positive integer/],
    [['query', 'points', '--field', 'speed'], /required option '--series <key>' not specified/],
    [
      ['query', 'points', '--series', 's', '--field', 'f', '--max-points', '5', '--level', 'hour'],
      /'--max-points <n>' cannot be used with option '--level <level>'/,
    ],
    [
      ['query', 'points', '--series', 's', '--field', 'f', '--detail', 'all'],
      /Allowed choices are slot, sub/,
    ],
    [['query', 'series', '--format', 'xml'], /Allowed choices are table, csv, json/],
    [['query', 'series', '--tag', 'sensor'], /"sensor" is not a tag; give key=value/],
    [
      ['query', 'window', '--field', 'speed', '--last', '10'],
      /"10" is not a window length; give whole minutes/,
    ],
    [
      ['query', 'window', '--field', 'speed', '--last', '10m', '--from', '-1h'],
      /'--last <duration>' cannot be used with option '--from <time>'/,
    ],
    [
      ['query', 'window', '--series', 'a', '--metric', 'm', '--field', 'f', '--last', '1m'],
      /'--series <keys...>' cannot be used with option '--metric <name>'/,
    ],
    [['query', 'window', '--field', 'speed', '--last', '10m'], /name the series: --series/],
    [['query', 'status'], /required option '--series <key>' not specified/],
  ])('refuses %j before touching anything', async (args, message) => {
    const { stderr, error, envRead } = await runOffline(args);
    expect(error).toBeDefined();
    expect(stderr).toMatch(message);
    expect(envRead).toBe(false);
  });
});

describe('formats', () => {
  it('aligns tables: text left, numbers right', () => {
    expect(
      formatTable(
        ['reason', 'seen'],
        [
          ['TOO_LATE', 12],
          ['total', 3],
        ],
      ),
    ).toBe('reason    seen\nTOO_LATE    12\ntotal        3\n');
  });

  it('picks the input format from the flag, else the file name', () => {
    expect(inputFormat(undefined, 'ticks.CSV')).toBe('csv');
    expect(inputFormat(undefined, 'ticks.jsonl')).toBe('jsonl');
    expect(inputFormat(undefined, '-')).toBe('jsonl');
    expect(inputFormat('jsonl', 'ticks.csv')).toBe('jsonl');
  });

  it('lists topics with what was done to each', () => {
    const text = formatTopics({
      topics: [
        { topic: 'raw-ticks', partitions: 3, wanted: 6, created: false },
        { topic: 'raw-ticks-dlq', partitions: 1, wanted: 1, created: true },
      ],
      created: ['raw-ticks-dlq'],
      mismatched: [{ topic: 'raw-ticks', partitions: 3, wanted: 6, created: false }],
    });
    expect(text).toMatch(/^raw-ticks\s+3\s+exists, 6 asked: left as is$/m);
    expect(text).toMatch(/^raw-ticks-dlq\s+1\s+created$/m);
  });

  it('tallies a redrive by reason', () => {
    const report: RedriveReport = {
      dlqTopic: 'raw-ticks-dlq',
      dryRun: true,
      partitions: [{ partition: 0, start: '0', end: '5' }],
      byReason: [{ reason: 'TOO_LATE', seen: 5, redriven: 3, skipped: 2 }],
      total: { reason: 'total', seen: 5, redriven: 3, skipped: 2 },
      skipped: { duplicate: 1, filtered: 0, overMax: 1, noSourceTopic: 0 },
    };
    const text = formatRedrive(report);
    expect(text).toContain('dry run: redrive from raw-ticks-dlq (partition 0 offsets 0..5)');
    expect(text).toMatch(/^reason\s+seen\s+would redrive\s+skipped$/m);
    expect(text).toMatch(/^TOO_LATE\s+5\s+3\s+2$/m);
    expect(text).toContain('skipped: 1 duplicate, 0 not matching --reason, 1 over --max');
  });

  it('flags reasons no worker writes', () => {
    expect(unknownReasons(['TOO_LATE', 'TOO_LAET', 'INVALID_VALUE'])).toEqual(['TOO_LAET']);
  });
});
