import { DEAD_LETTER_TOPIC, TICK_TOPIC } from '@tickertape/topology';
import type { Command } from 'commander';
import { positiveInt } from '../../arguments.js';
import type { CommandContext } from '../context.js';
import { formatMismatches, formatTopics, topicsCreate } from './run.js';

/** `tickertape topics create`: the tick topic and its dead-letter topic. */
export function registerTopics(program: Command, ctx: CommandContext): void {
  program
    .command('topics')
    .description('manage the tick topics')
    .command('create')
    .description('create the raw tick topic and its dead-letter topic where missing')
    .option('--topic <name>', 'raw tick topic', TICK_TOPIC)
    .option('--partitions <n>', 'partitions of the raw topic, if it is created', positiveInt, 6)
    .option('--dlq-topic <name>', 'dead-letter topic', DEAD_LETTER_TOPIC)
    .option('--dlq-partitions <n>', 'partitions of the DLQ topic, if it is created', positiveInt, 1)
    .option('--replication-factor <n>', "replicas (default: the broker's default)", positiveInt)
    .addHelpText(
      'after',
      '\nAn existing topic is left as it is, whatever its partition count: adding partitions\n' +
        'would move series to other partitions (docs/exactly-once.md). A difference is reported.\n',
    )
    .action(
      async (options: {
        topic: string;
        partitions: number;
        dlqTopic: string;
        dlqPartitions: number;
        replicationFactor?: number;
      }) => {
        const { env, logger } = ctx.ready();
        const result = await topicsCreate(env, options, logger);
        ctx.io.stdout(formatTopics(result));
        ctx.io.stderr(formatMismatches(result));
      },
    );
}
