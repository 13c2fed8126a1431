import { LEVELS, type Level } from '@tickertape/buckets';
import { describeError } from '@tickertape/errors';
import type { Logger } from '@tickertape/logger';
import { TICK_TOPIC } from '@tickertape/topology';
import { Option, type Command } from 'commander';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import type { CliEnv } from '../../env.js';
import { parseInstant, TIME_HELP } from '../../format/time.js';
import {
  defaultSource,
  RebuildError,
  type RebuildOptions,
  type RebuildPlan,
  type RebuildSource,
} from '@tickertape/history';
import { maxFutureOption, maxLatenessOption } from '../../time-window-options.js';
import { formatCleanup, formatRebuild, formatRebuildPlan } from './format.js';
import { cleanupCommand, REBUILD_HELP, rebuildCommand } from './run.js';

export interface RebuildCommandIo {
  ready: () => { env: CliEnv; logger: Logger };
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where the progress bar (or, off a terminal, progress lines) goes. */
  progress?: NodeJS.WritableStream;
  setExitCode: (code: number) => void;
  now?: () => number;
}

interface RebuildCommandOptions extends Pick<
  RebuildOptions,
  'topic' | 'maxLatenessMs' | 'maxFutureMs' | 'timeoutMs' | 'dryRun'
> {
  database: string;
  level?: Level;
  from?: string;
  to?: string;
  source?: RebuildSource;
  cleanup: boolean;
  progress: boolean;
  limit: number;
  json: boolean;
}

/** Exit status of a refused rebuild: the range, source or watermark must change first. */
const EXIT_REFUSED = 2;

/** `tickertape rebuild`: a level recomputed over final slots, in shadows, then swapped in. */
export function addRebuildCommand(program: Command, io: RebuildCommandIo): void {
  program
    .command('rebuild')
    .description(
      "recompute a level's final slots from the topic or the level below, and swap them in",
    )
    .addOption(new Option('--level <level>', 'the level to rebuild').choices(LEVELS))
    .option('--from <time>', `first slot to rebuild (${TIME_HELP}); on a slot boundary`)
    .option('--to <time>', 'end of the last slot to rebuild; on a slot boundary')
    .addOption(
      new Option(
        '--source <source>',
        'where from (default: the level below; topic for minute)',
      ).choices(['topic', ...LEVELS]),
    )
    .option('--database <name>', 'MongoDB database of the rollups', 'tickertape')
    .option('--topic <name>', 'tick topic (--source topic)', TICK_TOPIC)
    .addOption(maxLatenessOption())
    .addOption(maxFutureOption())
    .option(
      '--timeout-ms <ms>',
      'give up reading the topic after this long',
      positiveInt,
      3_600_000,
    )
    .option('--dry-run', 'print the plan, write nothing', false)
    .option('--cleanup', 'drop the replaced collections and the shadows of finished runs', false)
    .option('--no-progress', 'no progress bar')
    .option('--limit <n>', 'differences listed at most', nonNegativeInt, 50)
    .option('--json', 'the report as JSON', false)
    .addHelpText('after', REBUILD_HELP)
    .action(async (options: RebuildCommandOptions, command: Command) => {
      const usage = (message: string) =>
        command.error(`error: ${message}`, { exitCode: EXIT_REFUSED });
      const now = io.now ?? Date.now;
      if (options.cleanup) {
        if (options.level !== undefined || options.from !== undefined || options.to !== undefined)
          usage('--cleanup takes no --level, --from or --to');
        const { env, logger } = io.ready();
        const dropped = await cleanupCommand(env, options, logger, now);
        io.stdout(
          options.json
            ? `${JSON.stringify({ dropped, dryRun: options.dryRun })}\n`
            : formatCleanup(dropped, options.dryRun),
        );
        return;
      }
      if (options.level === undefined || options.from === undefined || options.to === undefined)
        usage('rebuild needs --level, --from and --to (or --cleanup)');
      const level = options.level!;
      const nowMs = now();
      const { env, logger } = io.ready();
      try {
        const source = options.source ?? defaultSource(level);
        const result = await rebuildCommand(
          env,
          {
            level,
            fromMs: parseInstant(options.from!, nowMs, '--from'),
            toMs: parseInstant(options.to!, nowMs, '--to'),
            source,
            database: options.database,
            topic: options.topic,
            maxLatenessMs: options.maxLatenessMs,
            maxFutureMs: options.maxFutureMs,
            timeoutMs: options.timeoutMs,
            dryRun: options.dryRun,
          },
          logger,
          {
            ...(options.progress && io.progress !== undefined ? { progress: io.progress } : {}),
            now,
          },
        );
        const report = 'runId' in result ? result : undefined;
        if (options.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
        else if (report === undefined) io.stdout(formatRebuildPlan(result as RebuildPlan));
        else io.stdout(formatRebuild(report, options.limit));
        if (report !== undefined && report.differences.length > 0) io.setExitCode(1);
      } catch (err) {
        if (!(err instanceof RebuildError)) throw err;
        io.stderr(`tickertape: ${describeError(err)}\n`);
        io.setExitCode(EXIT_REFUSED);
      }
    });
}
