import { TICK_TOPIC, type Store } from '@tickertape/topology';
import { Option, type Command } from 'commander';
import { intervalArgument, nonNegativeNumber } from '../../arguments.js';
import type { CommandContext } from '../context.js';
import { groupOption, storesOption } from '../store-options.js';
import { formatGroups, groupsJson } from './format.js';
import { groupsCommand, GROUPS_HELP } from './run.js';

/** `tickertape groups`: members, offsets and lag of every store's group. */
export function registerGroups(program: Command, ctx: CommandContext): void {
  program
    .command('groups')
    .description(
      'consumer groups of every level and the segment store: members, partitions, offsets, lag in records and seconds',
    )
    .option('--topic <name>', 'tick topic', TICK_TOPIC)
    .addOption(storesOption('show'))
    .addOption(groupOption())
    .addOption(
      new Option('--format <format>', 'table or json').choices(['table', 'json']).default('table'),
    )
    .option(
      '--max-lag-seconds <n>',
      'exit 1 when a store is further behind than this',
      nonNegativeNumber,
    )
    .option(
      '--interval <duration>',
      'time between the two samples that measure rates and growing lag; 0 for one sample',
      intervalArgument,
      2_000,
    )
    .addHelpText('after', GROUPS_HELP)
    .action(
      async (options: {
        topic: string;
        stores: Store[];
        group?: Partial<Record<Store, string>>;
        format: 'table' | 'json';
        maxLagSeconds?: number;
        interval: number;
      }) => {
        const { env, logger } = ctx.ready();
        const report = await groupsCommand(
          env,
          {
            topic: options.topic,
            stores: options.stores,
            groups: options.group ?? {},
            intervalMs: options.interval,
            ...(options.maxLagSeconds === undefined
              ? {}
              : { maxLagSeconds: options.maxLagSeconds }),
          },
          logger,
        );
        ctx.io.stdout(options.format === 'json' ? groupsJson(report) : formatGroups(report));
        if (!report.ok) ctx.io.setExitCode(1);
      },
    );
}
