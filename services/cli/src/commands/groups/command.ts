import { TICK_TOPIC, type Store } from '@tickertape/topology';
import { Option } from 'commander';
import { intervalArgument, nonNegativeNumber } from '../../arguments.js';
import { EXIT } from '../../exit-codes.js';
import { defineCommand } from '../command.js';
import { groupOption, storesOption } from '../store-options.js';
import { formatGroups } from './format.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { warningLine } from '../../producer-clocks.js';
import { groupsCommand, GROUPS_HELP } from './run.js';

/** `tickertape groups`: members, offsets and lag of every store's group. */
export const groupsDefinition = defineCommand({
  name: 'groups',
  summary:
    'consumer groups of every level and the segment store: members, partitions, offsets, lag in records and seconds',
  options: [
    new Option('--topic <name>', 'tick topic').default(TICK_TOPIC),
    storesOption('show'),
    groupOption(),
    ...formatOptions(['table', 'json']),
    new Option(
      '--max-lag-seconds <n>',
      'exit 1 when a store is further behind than this',
    ).argParser(nonNegativeNumber),
    new Option(
      '--interval <duration>',
      'time between the two samples that measure rates and growing lag; 0 for one sample',
    )
      .argParser(intervalArgument)
      .default(2_000),
  ],
  help: GROUPS_HELP,
  async run(
    ctx,
    options: {
      topic: string;
      stores: Store[];
      group?: Partial<Record<Store, string>>;
      format: OutputFormat;
      maxLagSeconds?: number;
      interval: number;
    },
  ) {
    const { env, logger } = ctx.ready();
    const report = await groupsCommand(
      env,
      {
        topic: options.topic,
        stores: options.stores,
        groups: options.group ?? {},
        intervalMs: options.interval,
        ...(options.maxLagSeconds === undefined ? {} : { maxLagSeconds: options.maxLagSeconds }),
      },
      logger,
    );
    ctx.io.stdout(options.format === 'json' ? jsonDocument(report) : formatGroups(report));
    ctx.io.stderr(warningLine(report.clocksProblem));
    return report.ok ? EXIT.ok : EXIT.failed;
  },
});
