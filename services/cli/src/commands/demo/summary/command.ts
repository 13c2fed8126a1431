import { TICK_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { positiveInt } from '../../../arguments.js';
import { formatOptions, type OutputFormat } from '../../../output/format-option.js';
import { jsonDocument } from '../../../output/json.js';
import { progressOptions, progressStarter } from '../../../output/progress-option.js';
import { defineCommand } from '../../command.js';
import { DEMO_COMMANDS } from '../heading.js';
import { formatSummary } from './format.js';
import { summaryCommand, type SummaryCommandOptions } from './run.js';

/** `tickertape summary`: the demo's report of what the workers did. */
export const summaryDefinition = defineCommand({
  name: 'summary',
  group: DEMO_COMMANDS,
  summary: 'what the rollup workers did, and a few answers read from the rollups',
  options: [
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    new Option('--workers <urls>', "workers' base URLs (for /metrics), comma-separated").default(
      'http://127.0.0.1:9401,http://127.0.0.1:9402,http://127.0.0.1:9403,http://127.0.0.1:9404',
    ),
    new Option('--topic <name>', 'raw tick topic').default(TICK_TOPIC),
    new Option(
      '--wait-for-groups <groups>',
      'first wait until these consumer groups have no lag on --topic',
    ),
    new Option('--window-minutes <n>', 'window of the average').argParser(positiveInt).default(10),
    new Option('--limit <n>', 'series per table').argParser(positiveInt).default(5),
    new Option('--timeout-ms <ms>', 'how long to wait for the groups')
      .argParser(positiveInt)
      .default(120_000),
    ...formatOptions(['table', 'json']),
    ...progressOptions(),
  ],
  async run(ctx, options: SummaryCommandOptions & { format: OutputFormat; progress?: boolean }) {
    const { env, logger } = ctx.ready();
    const report = await summaryCommand(
      env,
      options,
      logger,
      ctx.now,
      progressStarter(ctx.io.progress, options.progress, { now: ctx.now }),
    );
    ctx.io.stdout(options.format === 'json' ? jsonDocument(report) : formatSummary(report));
  },
});
