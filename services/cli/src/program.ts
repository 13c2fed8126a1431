import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { PROFILE_NAMES, type ProfileName } from '@tickertape/producer';
import { DEAD_LETTER_TOPIC, STORES, TICK_TOPIC, type Store } from '@tickertape/topology';
import { Command, InvalidArgumentError, Option } from 'commander';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  groupStartArgument,
  integer,
  intervalArgument,
  nonNegativeInt,
  nonNegativeNumber,
  offset,
  positiveInt,
  positiveNumber,
} from './arguments.js';
import type { GroupStart } from '@tickertape/clients';
import { addBackfillCommand } from './commands/backfill-command.js';
import { addLevelsCommand } from './commands/levels.js';
import { addRebuildCommand } from './commands/rebuild-command.js';
import { formatLoadgen, loadgen, LOADGEN_HELP } from './commands/loadgen.js';
import {
  formatPublish,
  INPUT_FORMATS,
  inputFormat,
  publish,
  PUBLISH_HELP,
  type InputFormat,
} from './commands/publish.js';
import { formatRedrive, REDRIVE_HELP, redriveCommand, unknownReasons } from './commands/redrive.js';
import { addQueryCommands } from './commands/query.js';
import { groupsCommand, GROUPS_HELP } from './commands/groups.js';
import { formatGroups, groupsJson } from './format/groups.js';
import { formatReplay, REPLAY_HELP, replayCommand } from './commands/replay.js';
import { roundtrip } from './commands/roundtrip.js';
import { formatSummary, summaryCommand, type SummaryCommandOptions } from './commands/summary.js';
import { formatMismatches, formatTopics, topicsCreate } from './commands/topics-create.js';
import {
  formatVerify,
  groupArgument,
  storesArgument,
  VERIFY_HELP,
  verifyCommand,
} from './commands/verify.js';
import { parseDuration } from './duration.js';
import { parseInstant, TIME_HELP } from './format/time.js';
import type { CliEnv } from './env.js';
import { formatRoundtrip } from './format.js';
import { BadInputError } from './input/input-error.js';
import type { LogSettings } from './log-output.js';
import { maxFutureOption, maxLatenessOption } from './time-window-options.js';

/** Everything a command touches outside itself, so tests can run the real program in-process. */
export interface CliIo {
  /** Reads and checks the environment; called once, by the first command that runs. */
  loadEnv: () => CliEnv;
  makeLogger: (settings: LogSettings) => Logger;
  stdin: Readable;
  /** The command's answer. */
  stdout: (text: string) => void;
  /** Reports for people: bad input lines, warnings. */
  stderr: (text: string) => void;
  /** Where loadgen draws its progress bar; none when absent. */
  progress?: NodeJS.WritableStream;
  /** A command that finished but must not report success (bad lines, unacknowledged ticks). */
  setExitCode: (code: number) => void;
  /** The clock `now` and relative times (`-1h`) are read from; tests fix it. Default Date.now. */
  now?: () => number;
}

async function openInput(file: string): Promise<Readable> {
  try {
    return (await open(file, 'r')).createReadStream();
  } catch (err) {
    throw new BadInputError(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting on --help and usage errors (in-process runs). */
  exitOverride?: boolean;
}

/** `--stores`: which of the levels and the segment store a command covers. */
const storesOption = (verb: string) =>
  new Option('--stores <list>', `what to ${verb}, comma-separated (${STORES.join(',')})`)
    .argParser(storesArgument)
    .default([...STORES]);

/** `--group store=group`, repeatable: a store's group when it is not the workers' default. */
const groupOption = () =>
  new Option(
    '--group <store=group>',
    "a store's consumer group when it is not the workers' default (repeatable)",
  ).argParser(groupArgument);

export function buildProgram(io: CliIo, settings: ProgramOptions = {}): Command {
  let context: { env: CliEnv; logger: Logger } | undefined;
  const ready = () => {
    if (context === undefined) {
      const env = io.loadEnv();
      context = { env, logger: io.makeLogger({ level: env.LOG_LEVEL, format: env.LOG_FORMAT }) };
    }
    return context;
  };

  const program = new Command('tickertape')
    .description('tickertape: Kafka → MongoDB time-series rollups')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  // Before the subcommands are added: they inherit it.
  if (settings.exitOverride === true) program.exitOverride();

  program
    .command('roundtrip')
    .description('publish one Avro tick, read it back from Kafka and upsert it into MongoDB')
    .option('--topic <name>', 'Kafka topic (created if missing)', 'tickertape-roundtrip')
    .option('--database <name>', 'MongoDB database', 'tickertape_demo')
    .option('--timeout-ms <ms>', 'give up after this long', positiveInt, 30_000)
    .action(async (options: { topic: string; database: string; timeoutMs: number }) => {
      const { env, logger } = ready();
      const result = await roundtrip(env, options, logger);
      io.stdout(formatRoundtrip(result, options));
    });

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
        const { env, logger } = ready();
        const result = await topicsCreate(env, options, logger);
        io.stdout(formatTopics(result));
        io.stderr(formatMismatches(result));
      },
    );

  program
    .command('publish')
    .description('publish ticks from JSON lines or CSV, read from FILE or stdin (-)')
    .argument('[file]', 'input file, - for stdin', '-')
    .addOption(
      new Option('--format <format>', 'input format (default: from the file name)').choices(
        INPUT_FORMATS,
      ),
    )
    .option('--topic <name>', 'topic to publish to (must exist)', TICK_TOPIC)
    .addHelpText('after', PUBLISH_HELP)
    .action(async (file: string, options: { format?: InputFormat; topic: string }) => {
      const { env, logger } = ready();
      const input = file === '-' ? io.stdin : await openInput(file);
      const result = await publish(
        env,
        { format: inputFormat(options.format, file), topic: options.topic, input },
        logger,
        (line, reason) => io.stderr(`line ${line}: ${reason}\n`),
      );
      io.stdout(formatPublish(result));
      if (result.firstFailure !== undefined) io.stderr(`first failure: ${result.firstFailure}\n`);
      if (result.bad > 0 || result.failed > 0) io.setExitCode(1);
    });

  program
    .command('loadgen')
    .description('publish generated ticks of a profile at a target rate, with a progress bar')
    .addOption(
      new Option('--profile <name>', 'load profile').choices(PROFILE_NAMES).makeOptionMandatory(),
    )
    .option('--rate <ticks/s>', 'target ticks per second, over all series', positiveNumber, 2000)
    .addOption(
      new Option('--duration <time>', 'how long: 500ms, 30s, 2m, 1h')
        .argParser(parseDuration)
        .default(30_000, '30s'),
    )
    .option(
      '--series <n>',
      'series (symbols, sensors); default stocks 50, traffic 500',
      positiveInt,
    )
    .option('--topic <name>', 'topic to publish to (must exist)', TICK_TOPIC)
    .option('--seed <n>', 'random seed', integer, 1)
    .option('--no-progress', 'no progress bar')
    .addHelpText('after', LOADGEN_HELP)
    .action(
      async (options: {
        profile: ProfileName;
        rate: number;
        duration: number;
        series?: number;
        topic: string;
        seed: number;
        progress: boolean;
      }) => {
        const { env, logger } = ready();
        // Ctrl-C ends the run early but still flushes and prints the summary.
        const interrupt = new AbortController();
        const stop = () => interrupt.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          const result = await loadgen(
            env,
            {
              profile: options.profile,
              rate: options.rate,
              durationMs: options.duration,
              series: options.series,
              topic: options.topic,
              seed: options.seed,
            },
            logger,
            { progress: options.progress ? io.progress : undefined, signal: interrupt.signal },
          );
          io.stdout(formatLoadgen(result));
          // Interrupted: the summary is printed, but a script must not take it for a full run.
          if (result.aborted) io.setExitCode(130);
          if (result.failed > 0) {
            io.stderr(`first failure: ${describeError(result.firstError)}\n`);
            io.setExitCode(1);
          }
        } finally {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
        }
      },
    );

  addBackfillCommand(program, {
    ready,
    stdin: io.stdin,
    stdout: io.stdout,
    ...(io.progress === undefined ? {} : { progress: io.progress }),
    setExitCode: io.setExitCode,
    ...(io.now === undefined ? {} : { now: io.now }),
  });

  addRebuildCommand(program, {
    ready,
    stdout: io.stdout,
    stderr: io.stderr,
    ...(io.progress === undefined ? {} : { progress: io.progress }),
    setExitCode: io.setExitCode,
    ...(io.now === undefined ? {} : { now: io.now }),
  });

  program
    .command('summary')
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
      const { env, logger } = ready();
      io.stdout(formatSummary(await summaryCommand(env, options, logger, io.now)));
    });

  addLevelsCommand(program, { ready, now: io.now ?? Date.now, stdout: io.stdout });

  addQueryCommands(program, {
    ready,
    now: io.now ?? Date.now,
    stdout: io.stdout,
    stderr: io.stderr,
  });

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
        const { env, logger } = ready();
        const reasons = options.reason ?? [];
        for (const reason of unknownReasons(reasons)) {
          io.stderr(`tickertape: warning: no worker writes the reason ${reason}\n`);
        }
        const report = await redriveCommand(env, { ...options, reasons }, logger);
        io.stdout(formatRedrive(report));
      },
    );

  program
    .command('replay')
    .description("rewind a level's consumer group to the start of the topic (workers stopped)")
    .requiredOption(
      '--store <store>',
      `the level or the segment store (${STORES.join(', ')})`,
      (text) => {
        const [store] = storesArgument(text);
        if (store === undefined || text.includes(',')) throw new InvalidArgumentError('one store');
        return store;
      },
    )
    .option('--group <id>', "its consumer group, when not the workers' default")
    .option('--topic <name>', 'tick topic', TICK_TOPIC)
    .option(
      '--from <where>',
      'earliest (a replay), latest, or an ISO time: where the group starts reading',
      groupStartArgument,
      'earliest' as GroupStart,
    )
    .addHelpText('after', REPLAY_HELP)
    .action(async (options: { store: Store; group?: string; topic: string; from: GroupStart }) => {
      const { env, logger } = ready();
      io.stdout(formatReplay(await replayCommand(env, options, logger)));
    });

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
        const { env, logger } = ready();
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
        io.stdout(options.format === 'json' ? groupsJson(report) : formatGroups(report));
        if (!report.ok) io.setExitCode(1);
      },
    );

  program
    .command('verify')
    .description('ground truth: refold the topic and compare every bucket, segment and dead letter')
    .option('--topic <name>', 'tick topic', TICK_TOPIC)
    .option('--dlq-topic <name>', 'dead-letter topic', DEAD_LETTER_TOPIC)
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .addOption(storesOption('check'))
    .addOption(groupOption())
    .option('--from <time>', `only buckets from this time (${TIME_HELP})`)
    .option('--to <time>', 'only buckets ending by this time')
    .addOption(maxLatenessOption())
    .addOption(maxFutureOption())
    .option('--segment-max-points <n>', "the segment workers' SEGMENT_MAX_POINTS", positiveInt, 500)
    .option(
      '--write-on-change <metrics>',
      "the segment workers' SEGMENT_WRITE_ON_CHANGE (comma-separated)",
      '',
    )
    .option('--wait-ms <ms>', 'wait this long for the groups to catch up', nonNegativeInt, 60_000)
    .option('--timeout-ms <ms>', 'give up reading a topic after this long', positiveInt, 120_000)
    .option('--limit <n>', 'differences listed at most', nonNegativeInt, 50)
    .option('--json', 'the whole report as JSON', false)
    .addHelpText('after', VERIFY_HELP)
    .action(
      async (options: {
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
        json: boolean;
      }) => {
        const { env, logger } = ready();
        const nowMs = (io.now ?? Date.now)();
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
        );
        io.stdout(
          options.json
            ? `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value), 2)}\n`
            : formatVerify(report, options.limit),
        );
        if (report.differences.length > 0) io.setExitCode(1);
      },
    );

  return program;
}
