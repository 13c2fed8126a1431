import type { Logger } from '@tickertape/logger';
import { Option, type Command } from 'commander';
import type { Readable } from 'node:stream';
import { STORES, TIME_WINDOW_DEFAULTS, type Store } from '@tickertape/topology';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { levelsArgument, retentionArgument } from '../../store-arguments.js';
import { formatBackfill } from './format.js';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseDuration } from '../../duration.js';
import type { CliEnv } from '../../env.js';
import { INPUT_FORMATS, inputFormat, type InputFormat } from '@tickertape/tick';
import { BACKFILL_HELP, backfillCommand } from './run.js';

export interface BackfillCommandIo {
  ready: () => { env: CliEnv; logger: Logger };
  stdin: Readable;
  stdout: (text: string) => void;
  /** Where the progress bar (or, off a terminal, progress lines) goes. */
  progress?: NodeJS.WritableStream;
  setExitCode: (code: number) => void;
  now?: () => number;
}

interface BackfillCommandOptions {
  database: string;
  format?: InputFormat;
  levels: Store[];
  retention?: Partial<Record<Store, number>>;
  maxFutureMs: number;
  segmentMaxPoints: number;
  writeOnChange: string;
  flushLines: number;
  progress: boolean;
  progressEvery: number;
  verbose: boolean;
  json: boolean;
}

/** `tickertape backfill FILE|-`: history straight into the rollups and the segment store. */
export function addBackfillCommand(program: Command, io: BackfillCommandIo): void {
  program
    .command('backfill')
    .description(
      'load historical ticks of any age from JSON lines or CSV into every level and the segment store',
    )
    .argument('[file]', 'input file, - for stdin', '-')
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .addOption(
      new Option('--format <format>', 'input format (default: from the file name)').choices(
        INPUT_FORMATS,
      ),
    )
    .option(
      '--levels <list>',
      `what to fill, comma-separated (${STORES.join(',')})`,
      levelsArgument,
      [...STORES],
    )
    .option(
      '--retention <store=duration>',
      "a store's retention when the scheduler's differs from the default (repeatable), e.g. minute=14d",
      retentionArgument,
    )
    .option(
      '--max-future-ms <ms>',
      "the workers' MAX_FUTURE_MS: later ticks are rejected",
      nonNegativeInt,
      TIME_WINDOW_DEFAULTS.maxFutureMs,
    )
    .option('--segment-max-points <n>', "the segment workers' SEGMENT_MAX_POINTS", positiveInt, 500)
    .option(
      '--write-on-change <metrics>',
      "the segment workers' SEGMENT_WRITE_ON_CHANGE (comma-separated)",
      '',
    )
    .option(
      '--flush-lines <n>',
      'lines per write (each store one bulk write per collection)',
      positiveInt,
      5000,
    )
    .option('--no-progress', 'no progress bar or lines on stderr')
    .addOption(
      new Option('--progress-every <time>', 'off a terminal, a progress line this often')
        .argParser(parseDuration)
        .default(5000, '5s'),
    )
    .option('--verbose', 'list every rejected line with its reason', false)
    .option('--json', 'the report as JSON (every rejected line included)', false)
    .addHelpText('after', BACKFILL_HELP)
    .action(async (file: string, options: BackfillCommandOptions) => {
      const { env, logger } = io.ready();
      const report = await backfillCommand(
        env,
        {
          file,
          stdin: io.stdin,
          format: inputFormat(options.format, file),
          database: options.database,
          stores: options.levels,
          retentionMs: { ...DEFAULT_RETENTION_MS, ...options.retention },
          maxFutureMs: options.maxFutureMs,
          segmentMaxPoints: options.segmentMaxPoints,
          writeOnChange: new Set(
            options.writeOnChange
              .split(',')
              .map((metric) => metric.trim())
              .filter((metric) => metric !== ''),
          ),
          flushLines: options.flushLines,
          keepAllRejects: options.verbose || options.json,
        },
        logger,
        {
          ...(options.progress && io.progress !== undefined ? { progress: io.progress } : {}),
          progressEveryMs: options.progressEvery,
          now: io.now ?? Date.now,
        },
      );
      io.stdout(
        options.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : formatBackfill(report, options.verbose),
      );
      if (report.rejected > 0) io.setExitCode(1);
    });
}
