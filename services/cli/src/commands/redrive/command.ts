import { DEAD_LETTER_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { nonNegativeInt, offset, positiveInt } from '../../arguments.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStarter } from '../../output/progress-option.js';
import { defineCommand } from '../command.js';
import { formatRedrive, REDRIVE_HELP, redriveCommand, unknownReasons } from './run.js';

/** `tickertape redrive`: dead letters back to their topic. */
export const redriveDefinition = defineCommand({
  name: 'redrive',
  summary: 'republish dead letters, original bytes, to the topic they came from',
  options: [
    new Option('--dlq-topic <name>', 'dead-letter topic to read').default(DEAD_LETTER_TOPIC),
    new Option('--topic <name>', "republish here instead of each record's source topic"),
    new Option('--reason <reason...>', 'only records with these reasons (default: all)'),
    new Option('--dry-run', 'read and tally, publish nothing').default(false),
    new Option('--max <n>', 'redrive at most n records').argParser(nonNegativeInt),
    new Option('--from-offset <offset>', 'start every DLQ partition at this offset').argParser(
      offset,
    ),
    new Option('--timeout-ms <ms>', 'give up if the end is not reached in this long')
      .argParser(positiveInt)
      .default(60_000),
    ...formatOptions(['table', 'json']),
    ...progressOptions(),
  ],
  help: REDRIVE_HELP,
  async run(
    ctx,
    options: {
      dlqTopic: string;
      topic?: string;
      reason?: string[];
      dryRun: boolean;
      max?: number;
      fromOffset?: bigint;
      timeoutMs: number;
      format: OutputFormat;
      progress?: boolean;
    },
  ) {
    const { env, logger } = ctx.ready();
    const reasons = options.reason ?? [];
    for (const reason of unknownReasons(reasons)) {
      ctx.io.stderr(`tickertape: warning: no worker writes the reason ${reason}\n`);
    }
    const startProgress = progressStarter(ctx.io.progress, options.progress, { now: ctx.now });
    const report = await redriveCommand(
      env,
      { ...options, reasons, ...(startProgress === undefined ? {} : { startProgress }) },
      logger,
    );
    ctx.io.stdout(options.format === 'json' ? jsonDocument(report) : formatRedrive(report));
  },
});
