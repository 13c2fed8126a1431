import { Argument, Option } from 'commander';
import { STORES, TIME_WINDOW_DEFAULTS, type Store } from '@tickertape/topology';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { levelsArgument, retentionArgument } from '../../store-arguments.js';
import { formatBackfill } from './format.js';
import { DEFAULT_RETENTION_MS } from '@tickertape/history';
import { parseDuration } from '../../duration.js';
import { EXIT } from '../../exit-codes.js';
import { INPUT_FORMATS, inputFormat, type InputFormat } from '@tickertape/tick';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStream } from '../../output/progress-option.js';
import { defineCommand } from '../command.js';
import { BACKFILL_HELP, backfillCommand } from './run.js';

interface BackfillCommandOptions {
  database: string;
  inputFormat?: InputFormat;
  levels: Store[];
  retention?: Partial<Record<Store, number>>;
  maxFutureMs: number;
  segmentMaxPoints: number;
  writeOnChange: string;
  flushLines: number;
  progress?: boolean;
  progressEvery: number;
  verbose: boolean;
  format: OutputFormat;
}

/** `tickertape backfill FILE|-`: history straight into the rollups and the segment store. */
export const backfillDefinition = defineCommand({
  name: 'backfill',
  summary:
    'load historical ticks of any age from JSON lines or CSV into every level and the segment store',
  arguments: [new Argument('[file]', 'input file, - for stdin').default('-')],
  options: [
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    new Option('--input-format <format>', 'input format (default: from the file name)').choices(
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
    ...progressOptions(),
    new Option('--progress-every <time>', 'off a terminal (--progress), a progress line this often')
      .argParser(parseDuration)
      .default(5000, '5s'),
    new Option('--verbose', 'list every rejected line with its reason').default(false),
    ...formatOptions(['table', 'json'], { legacyInput: true }),
  ],
  help: BACKFILL_HELP,
  async run(ctx, options: BackfillCommandOptions, file: string) {
    const { env, logger } = ctx.ready();
    const progress = progressStream(ctx.io.progress, options.progress);
    const report = await backfillCommand(
      env,
      {
        file,
        stdin: ctx.io.stdin,
        format: inputFormat(options.inputFormat, file),
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
        keepAllRejects: options.verbose || options.format === 'json',
      },
      logger,
      {
        ...(progress === undefined ? {} : { progress }),
        progressEveryMs: options.progressEvery,
        now: ctx.now,
      },
    );
    ctx.io.stdout(
      options.format === 'json' ? jsonDocument(report) : formatBackfill(report, options.verbose),
    );
    return report.rejected > 0 ? EXIT.failed : EXIT.ok;
  },
});
