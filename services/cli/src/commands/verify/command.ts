import { DEAD_LETTER_TOPIC, TICK_TOPIC, type Store } from '@tickertape/topology';
import { Option } from 'commander';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { EXIT } from '../../exit-codes.js';
import { parseInstant, TIME_HELP } from '../../format/time.js';
import { maxFutureOption, maxLatenessOption } from '../../time-window-options.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStarter } from '../../output/progress-option.js';
import { defineCommand } from '../command.js';
import { groupOption, storesOption } from '../store-options.js';
import { formatVerify, VERIFY_HELP, verifyCommand } from './run.js';

/** `tickertape verify`: refold the topic and compare every bucket, segment and dead letter. */
export const verifyDefinition = defineCommand({
  name: 'verify',
  summary: 'ground truth: refold the topic and compare every bucket, segment and dead letter',
  options: [
    new Option('--topic <name>', 'tick topic').default(TICK_TOPIC),
    new Option('--dlq-topic <name>', 'dead-letter topic').default(DEAD_LETTER_TOPIC),
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    storesOption('check'),
    groupOption(),
    new Option('--from <time>', `only buckets from this time (${TIME_HELP})`),
    new Option('--to <time>', 'only buckets ending by this time'),
    maxLatenessOption(),
    maxFutureOption(),
    new Option('--segment-max-points <n>', "the segment workers' SEGMENT_MAX_POINTS")
      .argParser(positiveInt)
      .default(500),
    new Option(
      '--write-on-change <metrics>',
      "the segment workers' SEGMENT_WRITE_ON_CHANGE (comma-separated)",
    ).default(''),
    new Option('--wait-ms <ms>', 'wait this long for the groups to catch up')
      .argParser(nonNegativeInt)
      .default(60_000),
    new Option('--timeout-ms <ms>', 'give up reading a topic after this long')
      .argParser(positiveInt)
      .default(120_000),
    new Option('--limit <n>', 'differences listed at most').argParser(nonNegativeInt).default(50),
    ...formatOptions(['table', 'json']),
    ...progressOptions(),
  ],
  help: VERIFY_HELP,
  async run(
    ctx,
    options: {
      topic: string;
      dlqTopic: string;
      database: string;
      stores: Store[];
      group?: Partial<Record<Store, string>>;
      from?: string;
      to?: string;
      maxLatenessMs: number;
      maxFutureMs: number;
      segmentMaxPoints: number;
      writeOnChange: string;
      waitMs: number;
      timeoutMs: number;
      limit: number;
      format: OutputFormat;
      progress?: boolean;
    },
  ) {
    const { env, logger } = ctx.ready();
    const nowMs = ctx.now();
    const report = await verifyCommand(
      env,
      {
        ...options,
        groups: options.group ?? {},
        fromMs:
          options.from === undefined ? undefined : parseInstant(options.from, nowMs, '--from'),
        toMs: options.to === undefined ? undefined : parseInstant(options.to, nowMs, '--to'),
        writeOnChange: options.writeOnChange
          .split(',')
          .map((metric) => metric.trim())
          .filter((metric) => metric !== ''),
      },
      logger,
      progressStarter(ctx.io.progress, options.progress, { now: ctx.now }),
    );
    ctx.io.stdout(
      options.format === 'json' ? jsonDocument(report) : formatVerify(report, options.limit),
    );
    return report.differences.length > 0 ? EXIT.failed : EXIT.ok;
  },
});
