import { DEAD_LETTER_TOPIC, TICK_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { positiveInt } from '../../arguments.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { defineCommand } from '../command.js';
import { warningLine } from '../../producer-clocks.js';
import { formatMismatches, formatTopics, topicsCreate } from './run.js';

/** `tickertape topics create`: the tick topic and its dead-letter topic. */
const createDefinition = defineCommand({
  name: 'create',
  summary: 'create the raw tick topic and its dead-letter topic where missing',
  options: [
    new Option('--topic <name>', 'raw tick topic').default(TICK_TOPIC),
    new Option('--partitions <n>', 'partitions of the raw topic, if it is created')
      .argParser(positiveInt)
      .default(6),
    new Option('--dlq-topic <name>', 'dead-letter topic').default(DEAD_LETTER_TOPIC),
    new Option('--dlq-partitions <n>', 'partitions of the DLQ topic, if it is created')
      .argParser(positiveInt)
      .default(1),
    new Option('--replication-factor <n>', "replicas (default: the broker's default)").argParser(
      positiveInt,
    ),
    ...formatOptions(['table', 'json']),
  ],
  help:
    '\nAn existing topic is left as it is, whatever its partition count: adding partitions\n' +
    'would move series to other partitions (docs/exactly-once.md). A difference is reported.\n',
  async run(
    ctx,
    options: {
      topic: string;
      partitions: number;
      dlqTopic: string;
      dlqPartitions: number;
      replicationFactor?: number;
      format: OutputFormat;
    },
  ) {
    const { env, logger } = ctx.ready();
    const result = await topicsCreate(env, options, logger);
    ctx.io.stdout(options.format === 'json' ? jsonDocument(result) : formatTopics(result));
    ctx.io.stderr(formatMismatches(result));
    ctx.io.stderr(warningLine(result.clocksProblem));
  },
});

export const topicsDefinition = defineCommand({
  name: 'topics',
  summary: 'manage the tick topics',
  subcommands: [createDefinition],
});
