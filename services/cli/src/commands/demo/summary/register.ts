import { TICK_TOPIC } from '@tickertape/topology';
import type { Command } from 'commander';
import { positiveInt } from '../../../arguments.js';
import type { CommandContext } from '../../context.js';
import { DEMO_COMMANDS } from '../heading.js';
import { formatSummary } from './format.js';
import { summaryCommand, type SummaryCommandOptions } from './run.js';

/** `tickertape summary`: the demo's report of what the workers did. */
export function registerSummary(program: Command, ctx: CommandContext): void {
  program
    .command('summary')
    .helpGroup(DEMO_COMMANDS)
    .description('what the rollup workers did, and a few answers read from the rollups')
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .option(
      '--workers <urls>',
      "workers' base URLs (for /metrics), comma-separated",
      'http://127.0.0.1:9401,http://127.0.0.1:9402,http://127.0.0.1:9403,http://127.0.0.1:9404',
    )
    .option('--topic <name>', 'raw tick topic', TICK_TOPIC)
    .option(
      '--wait-for-groups <groups>',
      'first wait until these consumer groups have no lag on --topic',
    )
    .option('--window-minutes <n>', 'window of the average', positiveInt, 10)
    .option('--limit <n>', 'series per table', positiveInt, 5)
    .option('--timeout-ms <ms>', 'how long to wait for the groups', positiveInt, 120_000)
    .action(async (options: SummaryCommandOptions) => {
      const { env, logger } = ctx.ready();
      ctx.io.stdout(formatSummary(await summaryCommand(env, options, logger, ctx.now)));
    });
}
