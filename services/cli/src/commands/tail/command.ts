import { DEAD_LETTER_TOPIC, TICK_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { nonNegativeInt, offset, positiveInt } from '../../arguments.js';
import { parseInstant } from '../../format/time.js';
import { formatOptions } from '../../output/format-option.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../../exit-codes.js';
import { emptyNote, followLine, formatTail, jsonLine, tailJson } from './format.js';
import { PartitionMissingError } from './partition-missing.js';
import { follow, tail, type TailStart } from './run.js';

export const TAIL_HELP = `
Without --offset, --from-beginning or --since: the last --limit records of the partitions read,
newest last. With one: the first --limit records from there. Records are shown in record-time
order (the broker's append time on the tick topic), one a line.

Values are decoded by the Avro schema their id names in the registry, without the workers'
checks, so a dead letter shows what was sent. A dead letter (--dlq, or any record the workers
dead-lettered) shows its reason and detail as the worker wrote them (headers
tickertape-dlq-reason and tickertape-dlq-detail; --format json adds its source topic, partition
and offset). The reasons are those of docs/producing.md.

With --follow the records are printed as they are read, in offset order within a partition,
from the start asked (each partition's end without one: new records only), until Ctrl-C (exit
130) or --limit records (exit 0).

Nothing is committed: the command reads with a throwaway consumer group and deletes it.
  tickertape tail --dlq --since -1h
  tickertape tail --follow --format json
  tickertape tail --partition 2 --offset 1500 --limit 5 --format json
`;

interface TailCommandOptions {
  topic: string;
  dlq: boolean;
  dlqTopic: string;
  partition?: number;
  offset?: bigint;
  fromBeginning: boolean;
  since?: string;
  limit?: number;
  follow: boolean;
  format: 'table' | 'json';
  timeoutMs: number;
}

/** `tickertape tail`: records of the tick topic or its DLQ, decoded, with dead letters' reasons. */
export const tailDefinition = defineCommand({
  name: 'tail',
  summary: 'show records of the tick topic or its dead-letter topic, decoded, with DLQ reasons',
  options: [
    new Option('--topic <name>', 'topic to read').default(TICK_TOPIC),
    new Option('--dlq', 'read the dead-letter topic (--dlq-topic) instead').default(false),
    new Option('--dlq-topic <name>', 'dead-letter topic').default(DEAD_LETTER_TOPIC),
    new Option('--partition <n>', 'read this partition only').argParser(nonNegativeInt),
    new Option('--offset <n>', 'start every partition read at this offset')
      .argParser(offset)
      .conflicts(['fromBeginning', 'since']),
    new Option('--from-beginning', "start at each partition's first record")
      .default(false)
      .conflicts(['since']),
    new Option(
      '--since <time>',
      'start at the first record appended at or after this time (ISO-8601, epoch ms, -1h, now-15m)',
    ),
    new Option('--limit <n>', 'records shown at most (default: 20; none with --follow)').argParser(
      positiveInt,
    ),
    new Option(
      '--follow',
      'keep reading: print each record as it is appended (from the end, or the start asked) until Ctrl-C or --limit',
    ).default(false),
    // json here is a stream: one object a line (NDJSON), as README says of streaming commands.
    ...formatOptions(['table', 'json']),
    new Option('--timeout-ms <ms>', 'give up if the records are not read in this long')
      .argParser(positiveInt)
      .default(60_000),
  ],
  help: TAIL_HELP,
  async run(ctx, options: TailCommandOptions) {
    const start: TailStart =
      options.offset !== undefined
        ? { kind: 'offset', offset: options.offset }
        : options.fromBeginning
          ? { kind: 'beginning' }
          : options.since !== undefined
            ? { kind: 'time', ms: parseInstant(options.since, ctx.now(), '--since') }
            : { kind: 'latest' };
    const { env, logger } = ctx.ready();
    const topic = options.dlq ? options.dlqTopic : options.topic;
    const partition = options.partition === undefined ? {} : { partition: options.partition };
    try {
      if (options.follow) {
        const interrupted = new AbortController();
        const stop = () => interrupted.abort();
        process.once('SIGINT', stop);
        try {
          await follow(
            env,
            {
              topic,
              start,
              signal: interrupted.signal,
              ...partition,
              ...(options.limit === undefined ? {} : { limit: options.limit }),
            },
            logger,
            (record) =>
              ctx.io.stdout(
                options.format === 'json' ? jsonLine(topic, record) : followLine(record),
              ),
          );
        } finally {
          process.off('SIGINT', stop);
        }
        return interrupted.signal.aborted ? EXIT.interrupted : EXIT.ok;
      }
      const report = await tail(
        env,
        { topic, start, limit: options.limit ?? 20, timeoutMs: options.timeoutMs, ...partition },
        logger,
      );
      ctx.io.stdout(options.format === 'json' ? tailJson(report) : formatTail(report));
      ctx.io.stderr(emptyNote(report));
    } catch (err) {
      if (err instanceof PartitionMissingError) ctx.usage(err.message);
      throw err;
    }
    return EXIT.ok;
  },
});
