import { describe, expect, it } from '@jest/globals';
import { parseArgs, parseDurationArg } from '../../src/args.js';
import { tenMinuteWindow } from '../../src/reads.js';
import { medianOf, medianRound } from '../../src/design-runs.js';
import { PRESETS, resolveSettings } from '../../src/settings.js';
import { percentile, repeat, repeatPaired } from '../../src/stats.js';
import { parseMetrics } from '../../src/workers.js';

const MINUTE = 60_000;

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('repeat stops at the budget once the minimum runs are done', async () => {
    let calls = 0;
    const { samplesMs, answer } = await repeat(() => Promise.resolve(++calls), 5, {
      ms: 0,
      minRuns: 2,
    });
    expect(samplesMs).toHaveLength(2);
    expect(answer).toBe(2);
  });
});

describe('repeatPaired', () => {
  it('runs the two reads in turns, each as often, the first swapped every round', async () => {
    const order: string[] = [];
    const [a, b] = await repeatPaired(
      () => Promise.resolve(order.push('a')),
      () => Promise.resolve(String(order.push('b'))),
      3,
    );
    expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(a.answer).toBe(5);
    expect(b.answer).toBe('6');
    expect(a.samplesMs).toHaveLength(3);
    expect(b.samplesMs).toHaveLength(3);
  });

  it('runs both reads untimed first when asked to warm up', async () => {
    const order: string[] = [];
    const [a, b] = await repeatPaired(
      () => Promise.resolve(order.push('a')),
      () => Promise.resolve(order.push('b')),
      1,
      2,
    );
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(a.samplesMs).toHaveLength(1);
    expect(b.samplesMs).toHaveLength(1);
  });

  it('refuses no runs', async () => {
    await expect(
      repeatPaired(
        () => Promise.resolve(1),
        () => Promise.resolve(2),
        0,
      ),
    ).rejects.toThrow(RangeError);
  });
});

describe('parseMetrics', () => {
  it('sums every sample of a name, labels aside, and skips comments', () => {
    const text = [
      '# HELP tickertape_db_operations_total Update operations',
      '# TYPE tickertape_db_operations_total counter',
      'tickertape_db_operations_total{level="minute"} 120',
      'tickertape_dead_letters_total{level="minute",reason="TOO_LATE"} 2',
      'tickertape_dead_letters_total{level="minute",reason="DECODE_ERROR"} 3',
      'process_cpu_seconds_total{level="minute"} 1.25',
      '',
    ].join('\n');
    const metrics = parseMetrics(text);
    expect(metrics.get('tickertape_db_operations_total')).toBe(120);
    expect(metrics.get('tickertape_dead_letters_total')).toBe(5);
    expect(metrics.get('process_cpu_seconds_total')).toBe(1.25);
  });
});

describe('tenMinuteWindow', () => {
  it('straddles the last hour boundary when the data has 5 minutes each side of it', () => {
    const hour = Date.UTC(2026, 10, 21, 10);
    expect(tenMinuteWindow(hour - 15 * MINUTE, hour + 15 * MINUTE)).toEqual({
      fromMs: hour - 5 * MINUTE,
      toMs: hour + 5 * MINUTE,
    });
    expect(tenMinuteWindow(hour + 10 * MINUTE, hour + 40 * MINUTE)).toEqual({
      fromMs: hour + 30 * MINUTE,
      toMs: hour + 40 * MINUTE,
    });
  });
});

describe('settings and arguments', () => {
  it('checks the presets and applies overrides', () => {
    expect(resolveSettings('full')).toEqual(PRESETS.full);
    const settings = resolveSettings('smoke', { partitions: 2, workers: 'source' });
    expect(settings.partitions).toBe(2);
    expect(settings.workers).toBe('source');
    expect(() => resolveSettings('smoke', { durationMs: MINUTE })).toThrow(/durationMs/);
  });

  it('writes the doc for the full profile only, unless told', () => {
    expect(parseArgs([]).settings.docPath).toMatch(/docs\/benchmarks\.md$/);
    expect(parseArgs(['--profile', 'smoke']).settings.docPath).toBeUndefined();
    expect(parseArgs(['--no-write']).settings.docPath).toBeUndefined();
    expect(parseArgs(['--profile', 'smoke', '--write', '/tmp/b.md']).settings.docPath).toBe(
      '/tmp/b.md',
    );
    const parsed = parseArgs(['--profile', 'smoke', '--traffic', '60', '--duration', '20m']);
    expect(parsed.settings.traffic).toEqual({
      series: 60,
      perSecond: PRESETS.smoke.traffic.perSecond,
    });
    expect(parsed.settings.durationMs).toBe(20 * MINUTE);
    expect(parsed.commandLine).toBe(
      'node tools/bench/dist/main.js --profile smoke --traffic 60 --duration 20m',
    );
  });

  it('takes live grid cells, their duration and a budget from the command line', () => {
    const parsed = parseArgs([
      '--profile',
      'smoke',
      '--live-cell',
      '10000x1',
      '--live-cell',
      '20000x1/60',
      '--live-duration',
      '30s',
      '--live-budget',
      '0',
    ]).settings;
    expect(parsed.liveCells).toEqual([
      { series: 10_000, perSecond: 1 },
      { series: 20_000, perSecond: 1 / 60 },
    ]);
    expect(parsed.liveDurationMs).toBe(30_000);
    expect(parsed.liveBudgetMs).toBe(0);
    expect(parseArgs([]).settings.liveCells).toHaveLength(4);
    expect(() => parseArgs(['--live-cell', 'many'])).toThrow(/series x rate/);
  });

  it('reads durations', () => {
    expect(parseDurationArg('250ms')).toBe(250);
    expect(parseDurationArg('20')).toBe(20_000);
    expect(parseDurationArg('1.5h')).toBe(5_400_000);
    expect(() => parseDurationArg('soon')).toThrow(/duration/);
  });
});

describe('rounds', () => {
  const run = (ticksPerSec: number) =>
    ({
      key: 'B',
      ticks: 100,
      seconds: 1,
      ticksPerSec,
      ops: 1,
      requests: 1,
      cpuSeconds: 1,
    }) as const;

  it('reports the median round with every round in run order', () => {
    const rounds = [run(9_000), run(21_000), run(15_000)];
    expect(medianOf(rounds)).toBe(rounds[2]);
    expect(medianRound(rounds)).toEqual({ ...run(15_000), rounds: [9_000, 21_000, 15_000] });
  });

  it('takes the lower middle of an even count, and a single round as it is', () => {
    expect(medianOf([run(3), run(1), run(4), run(2)]).ticksPerSec).toBe(2);
    expect(medianRound([run(7)])).toEqual(run(7));
  });
});
