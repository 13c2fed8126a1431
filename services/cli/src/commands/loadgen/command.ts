import { describeError } from '@tickertape/errors';
import { PROFILE_NAMES, type ProfileName } from '@tickertape/producer';
import { TICK_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { integer, positiveInt, positiveNumber } from '../../arguments.js';
import { parseDuration } from '../../duration.js';
import { EXIT } from '../../exit-codes.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStarter, withStarter } from '../../output/progress-option.js';
import { defineCommand } from '../command.js';
import { formatLoadgen, loadgen, LOADGEN_HELP, loadgenJson } from './run.js';

/** `tickertape loadgen`: generated ticks at a target rate. */
export const loadgenDefinition = defineCommand({
  name: 'loadgen',
  summary: 'publish generated ticks of a profile at a target rate, with progress',
  options: [
    new Option('--profile <name>', 'load profile').choices(PROFILE_NAMES).makeOptionMandatory(),
    new Option('--rate <ticks/s>', 'target ticks per second, over all series')
      .argParser(positiveNumber)
      .default(2000),
    new Option('--duration <time>', 'how long: 500ms, 30s, 2m, 1h')
      .argParser(parseDuration)
      .default(30_000, '30s'),
    new Option(
      '--series <n>',
      'series (symbols, sensors); default stocks 50, traffic 500',
    ).argParser(positiveInt),
    new Option('--topic <name>', 'topic to publish to (must exist)').default(TICK_TOPIC),
    new Option('--seed <n>', 'random seed').argParser(integer).default(1),
    ...formatOptions(['table', 'json']),
    ...progressOptions(),
  ],
  help: LOADGEN_HELP,
  async run(
    ctx,
    options: {
      profile: ProfileName;
      rate: number;
      duration: number;
      series?: number;
      topic: string;
      seed: number;
      format: OutputFormat;
      progress?: boolean;
    },
  ) {
    const { env, logger } = ctx.ready();
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
        {
          ...withStarter(progressStarter(ctx.io.progress, options.progress, { now: ctx.now })),
          signal: interrupt.signal,
        },
      );
      ctx.io.stdout(
        options.format === 'json' ? jsonDocument(loadgenJson(result)) : formatLoadgen(result),
      );
      if (result.failed > 0) {
        ctx.io.stderr(`first failure: ${describeError(result.firstError)}\n`);
        return EXIT.failed;
      }
      // Interrupted: the summary is printed, but a script must not take it for a full run.
      return result.aborted ? EXIT.interrupted : EXIT.ok;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
});
