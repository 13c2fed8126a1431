import { describeError } from '@tickertape/errors';
import { PROFILE_NAMES, type ProfileName } from '@tickertape/producer';
import { TICK_TOPIC } from '@tickertape/topology';
import { Option, type Command } from 'commander';
import { integer, positiveInt, positiveNumber } from '../../arguments.js';
import { parseDuration } from '../../duration.js';
import type { CommandContext } from '../context.js';
import { formatLoadgen, loadgen, LOADGEN_HELP } from './run.js';

/** `tickertape loadgen`: generated ticks at a target rate. */
export function registerLoadgen(program: Command, ctx: CommandContext): void {
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
            { progress: options.progress ? ctx.io.progress : undefined, signal: interrupt.signal },
          );
          ctx.io.stdout(formatLoadgen(result));
          // Interrupted: the summary is printed, but a script must not take it for a full run.
          if (result.aborted) ctx.io.setExitCode(130);
          if (result.failed > 0) {
            ctx.io.stderr(`first failure: ${describeError(result.firstError)}\n`);
            ctx.io.setExitCode(1);
          }
        } finally {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
        }
      },
    );
}
