import { Argument, Option } from 'commander';
import { STORES, TIME_WINDOW_DEFAULTS, type Store } from '@tickertape/topology';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { levelsArgument, retentionArgument } from '../../store-arguments.js';
import { formatBackfill } from './format.js';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseDuration } from '../../duration.js';
import { EXIT } from '../../exit-codes.js';
import { INPUT_FORMATS, inputFormat, type InputFormat } from '@tickertape/tick';
import { defineCommand } from '../command.js';
import { BACKFILL_HELP, backfillCommand } from './run.js';

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
export const backfillDefinition = defineCommand({
  name: 'backfill',
  summary:
    'load historical ticks of any age from JSON lines or CSV into every level and the segment store',
  arguments: [new Argument('[file]', 'input file, - for stdin').default('-')],
  options: [
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    new Option('--format <format>', 'input format (default: from the file name)').choices(
      INPUT_FORMATS,
    ),
    new Option('--levels <list>', `what to fill, comma-separated (${STORES.join(',')})`)
      .argParser(levelsArgument)
      .default([...STORES]),
    new Option(
      '--retention <store=duration>',
      "a store's retention when the scheduler's differs from the default (repeatable), e.g. minute=14d",
    ).argParser(retentionArgument),
    new Option('--max-future-ms <ms>', "the workers' MAX_FUTURE_MS: later ticks are rejected")
      .argParser(nonNegativeInt)
      .default(TIME_WINDOW_DEFAULTS.maxFutureMs),
    new Option('--segment-max-points <n>', "the segment workers' SEGMENT_MAX_POINTS")
      .argParser(positiveInt)
      .default(500),
    new Option(
      '--write-on-change <metrics>',
      "the segment workers' SEGMENT_WRITE_ON_CHANGE (comma-separated)",
    ).default(''),
    new Option('--flush-lines <n>', 'lines per write (each store one bulk write per collection)')
      .argParser(positiveInt)
      .default(5000),
    new Option('--no-progress', 'no progress bar or lines on stderr'),
    new Option('--progress-every <time>', 'off a terminal, a progress line this often')
      .argParser(parseDuration)
      .default(5000, '5s'),
    new Option('--verbose', 'list every rejected line with its reason').default(false),
    new Option('--json', 'the report as JSON (every rejected line included)').default(false),
  ],
  help: BACKFILL_HELP,
  async run(ctx, options: BackfillCommandOptions, file: string) {
    const { env, logger } = ctx.ready();
    const report = await backfillCommand(
      env,
      {
        file,
        stdin: ctx.io.stdin,
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
        ...(options.progress && ctx.io.progress !== undefined ? { progress: ctx.io.progress } : {}),
        progressEveryMs: options.progressEvery,
        now: ctx.now,
      },
    );
    ctx.io.stdout(
      options.json
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatBackfill(report, options.verbose),
    );
    return report.rejected > 0 ? EXIT.failed : EXIT.ok;
  },
});
