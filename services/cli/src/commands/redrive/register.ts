import { DEAD_LETTER_TOPIC } from '@tickertape/topology';
import type { Command } from 'commander';
import { nonNegativeInt, offset, positiveInt } from '../../arguments.js';
import type { CommandContext } from '../context.js';
import { formatRedrive, REDRIVE_HELP, redriveCommand, unknownReasons } from './run.js';

/** `tickertape redrive`: dead letters back to their topic. */
export function registerRedrive(program: Command, ctx: CommandContext): void {
  program
    .command('redrive')
    .description('republish dead letters, original bytes, to the topic they came from')
    .option('--dlq-topic <name>', 'dead-letter topic to read', DEAD_LETTER_TOPIC)
    .option('--topic <name>', "republish here instead of each record's source topic")
    .option('--reason <reason...>', 'only records with these reasons (default: all)')
    .option('--dry-run', 'read and tally, publish nothing', false)
    .option('--max <n>', 'redrive at most n records', nonNegativeInt)
    .option('--from-offset <offset>', 'start every DLQ partition at this offset', offset)
    .option(
      '--timeout-ms <ms>',
      'give up if the end is not reached in this long',
      positiveInt,
      60_000,
    )
    .addHelpText('after', REDRIVE_HELP)
    .action(
      async (options: {
        dlqTopic: string;
        topic?: string;
        reason?: string[];
        dryRun: boolean;
        max?: number;
        fromOffset?: bigint;
        timeoutMs: number;
      }) => {
        const { env, logger } = ctx.ready();
        const reasons = options.reason ?? [];
        for (const reason of unknownReasons(reasons)) {
          ctx.io.stderr(`tickertape: warning: no worker writes the reason ${reason}\n`);
        }
        const report = await redriveCommand(env, { ...options, reasons }, logger);
        ctx.io.stdout(formatRedrive(report));
      },
    );
}
