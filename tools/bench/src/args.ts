import { Command, InvalidArgumentError, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { PROFILES, resolveSettings, type BenchSettings, type ProfileChoice } from './settings.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `250ms`, `20s`, `5m`, `1h` (a bare number is seconds) → whole milliseconds. */
export function parseDurationArg(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (match === null) throw new InvalidArgumentError('expected a duration such as 20s, 5m or 1h');
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']!);
}

/** `10000x1`, `20000x1/60` (series × ticks per series per second) → a live grid cell. */
export function parseLiveCell(
  text: string,
  previous: { series: number; perSecond: number }[] | undefined,
): { series: number; perSecond: number }[] {
  const match = /^(\d+)x(\d+(?:\.\d+)?)(?:\/(\d+(?:\.\d+)?))?$/.exec(text.trim());
  const perSecond = match === null ? Number.NaN : Number(match[2]) / Number(match[3] ?? 1);
  if (match === null || !(perSecond > 0))
    throw new InvalidArgumentError('expected series x rate per series, e.g. 10000x1 or 20000x1/60');
  return [...(previous ?? []), { series: Number(match[1]), perSecond }];
}

function parseNumber(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new InvalidArgumentError('expected a number');
  return value;
}

/** docs/benchmarks.md of this repository, from src/ or dist/ alike. */
export const DEFAULT_DOC = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));

export interface ParsedArgs {
  settings: BenchSettings;
  /** The command line the report quotes as the one that produced it. */
  commandLine: string;
}

interface RawOptions {
  profile: ProfileChoice;
  partitions?: number;
  seed?: number;
  stocks?: number;
  stockRate?: number;
  traffic?: number;
  trafficRate?: number;
  duration?: number;
  naiveCap?: number;
  readRuns?: number;
  rounds?: number;
  workerConcurrency?: number;
  latency?: number;
  liveCell?: { series: number; perSecond: number }[];
  liveDuration?: number;
  liveBudget?: number;
  workers?: 'dist' | 'source';
  cpuProfile?: boolean;
  keep?: boolean;
  write?: string | boolean;
  commandLine?: string;
}

/**
 * Parses the command line once into checked settings. The doc is written for the full profile
 * by default (`--no-write` prints only; `--write FILE` writes elsewhere, whatever the profile).
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const program = new Command('bench')
    .description('tickertape vs no-op and naive Kafka → MongoDB designs, side by side in one run')
    .addOption(new Option('--profile <name>', 'preset').choices(PROFILES).default('full'))
    .option('--partitions <n>', 'partitions of the benchmark topic', parseNumber)
    .option('--seed <n>', 'seed of the tick set', parseNumber)
    .option('--stocks <n>', 'stock symbols', parseNumber)
    .option('--stock-rate <r>', 'ticks per symbol per second', parseNumber)
    .option('--traffic <n>', 'traffic sensors', parseNumber)
    .option('--traffic-rate <r>', 'ticks per sensor per second', parseNumber)
    .option('--duration <d>', 'event-time span of the tick set (e.g. 60m)', parseDurationArg)
    .option('--naive-cap <d>', 'stop the insertOne design after this long', parseDurationArg)
    .option('--read-runs <n>', 'repetitions of each read', parseNumber)
    .option('--rounds <n>', 'rounds of A and B (the median is reported)', parseNumber)
    .option(
      '--worker-concurrency <n>',
      "the workers' PARTITIONS_CONCURRENTLY (default: theirs)",
      parseNumber,
    )
    .option(
      '--latency <d>',
      'how long to produce for the produce → visible measure',
      parseDurationArg,
    )
    .addOption(
      new Option('--workers <mode>', 'run the workers from dist/ or from src/ (tsx)').choices([
        'dist',
        'source',
      ]),
    )
    .option(
      '--cpu-profile',
      "profile an extra round of B's workers with node --cpu-prof (default in full)",
    )
    .option('--no-cpu-profile', 'no profiled round (default in smoke)')
    .option(
      '--live-cell <series>x<rate>',
      "a cell of the live grid instead of the profile's, e.g. 10000x1 or 20000x1/60 (repeatable)",
      parseLiveCell,
    )
    .option('--live-duration <d>', 'how long each live cell publishes (e.g. 60s)', parseDurationArg)
    .option(
      '--live-budget <d>',
      "FRESHNESS_BUDGET_MS of every level in the live grid (default: the workers' own)",
      parseDurationArg,
    )
    .option('--keep', 'keep the topics, databases and subject for inspection')
    .option('--write <file>', 'write the Markdown report (and its chart beside it) here')
    .option('--no-write', 'print the report only')
    .addOption(new Option('--command-line <text>', 'the command quoted in the report').hideHelp())
    .exitOverride();
  program.parse([...argv], { from: 'user' });
  const raw = program.opts<RawOptions>();
  const docPath =
    typeof raw.write === 'string'
      ? raw.write
      : raw.write === false || raw.profile !== 'full'
        ? undefined
        : DEFAULT_DOC;
  const base = resolveSettings(raw.profile);
  const settings = resolveSettings(raw.profile, {
    partitions: raw.partitions,
    seed: raw.seed,
    stocks: {
      series: raw.stocks ?? base.stocks.series,
      perSecond: raw.stockRate ?? base.stocks.perSecond,
    },
    traffic: {
      series: raw.traffic ?? base.traffic.series,
      perSecond: raw.trafficRate ?? base.traffic.perSecond,
    },
    durationMs: raw.duration,
    naiveCapMs: raw.naiveCap,
    readRuns: raw.readRuns,
    rounds: raw.rounds,
    workerConcurrency: raw.workerConcurrency,
    latencyMs: raw.latency,
    liveCells: raw.liveCell,
    liveDurationMs: raw.liveDuration,
    liveBudgetMs: raw.liveBudget,
    workers: raw.workers,
    cpuProfile: raw.cpuProfile,
    keep: raw.keep,
    docPath,
  });
  return {
    settings,
    commandLine: raw.commandLine ?? ['node tools/bench/dist/main.js', ...argv].join(' '),
  };
}
