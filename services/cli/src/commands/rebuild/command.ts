import { LEVELS, type Level } from '@tickertape/buckets';
import { describeError } from '@tickertape/errors';
import { TICK_TOPIC } from '@tickertape/topology';
import { Option } from 'commander';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { EXIT } from '../../exit-codes.js';
import { parseInstant, TIME_HELP } from '../../format/time.js';
import {
  defaultSource,
  RebuildError,
  type RebuildOptions,
  type RebuildPlan,
  type RebuildSource,
} from '@tickertape/history';
import { maxFutureOption, maxLatenessOption } from '../../time-window-options.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStream } from '../../output/progress-option.js';
import { defineCommand } from '../command.js';
import { formatCleanup, formatRebuild, formatRebuildPlan } from './format.js';
import { cleanupCommand, REBUILD_HELP, rebuildCommand } from './run.js';

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
  progress?: boolean;
  limit: number;
  format: OutputFormat;
}

/** `tickertape rebuild`: a level recomputed over final slots, in shadows, then swapped in. */
export const rebuildDefinition = defineCommand({
  name: 'rebuild',
  summary: "recompute a level's final slots from the topic or the level below, and swap them in",
  options: [
    new Option('--level <level>', 'the level to rebuild').choices(LEVELS),
    new Option('--from <time>', `first slot to rebuild (${TIME_HELP}); on a slot boundary`),
    new Option('--to <time>', 'end of the last slot to rebuild; on a slot boundary'),
    new Option(
      '--source <source>',
      'where from (default: the level below; topic for minute)',
    ).choices(['topic', ...LEVELS]),
    new Option('--database <name>', 'MongoDB database of the rollups').default('tickertape'),
    new Option('--topic <name>', 'tick topic (--source topic)').default(TICK_TOPIC),
    maxLatenessOption(),
    maxFutureOption(),
    new Option('--timeout-ms <ms>', 'give up reading the topic after this long')
      .argParser(positiveInt)
      .default(3_600_000),
    new Option('--dry-run', 'print the plan, write nothing').default(false),
    new Option(
      '--cleanup',
      'drop the replaced collections and the shadows of finished runs',
    ).default(false),
    ...progressOptions(),
    new Option('--limit <n>', 'differences listed at most').argParser(nonNegativeInt).default(50),
    ...formatOptions(['table', 'json']),
  ],
  help: REBUILD_HELP,
  async run(ctx, options: RebuildCommandOptions) {
    // Refused, not failed: the range, source or watermark must change first.
    const usage: (message: string) => never = (message) => ctx.usage(message, EXIT.refused);
    const { now } = ctx;
    if (options.cleanup) {
      if (options.level !== undefined || options.from !== undefined || options.to !== undefined)
        usage('--cleanup takes no --level, --from or --to');
      const { env, logger } = ctx.ready();
      const dropped = await cleanupCommand(env, options, logger, now);
      ctx.io.stdout(
        options.format === 'json'
          ? jsonDocument({ dropped, dryRun: options.dryRun })
          : formatCleanup(dropped, options.dryRun),
      );
      return EXIT.ok;
    }
    if (options.level === undefined || options.from === undefined || options.to === undefined)
      usage('rebuild needs --level, --from and --to (or --cleanup)');
    const nowMs = now();
    const { env, logger } = ctx.ready();
    const progress = progressStream(ctx.io.progress, options.progress);
    try {
      const source = options.source ?? defaultSource(options.level);
      const result = await rebuildCommand(
        env,
        {
          level: options.level,
          fromMs: parseInstant(options.from, nowMs, '--from'),
          toMs: parseInstant(options.to, nowMs, '--to'),
          source,
          database: options.database,
          topic: options.topic,
          maxLatenessMs: options.maxLatenessMs,
          maxFutureMs: options.maxFutureMs,
          timeoutMs: options.timeoutMs,
          dryRun: options.dryRun,
        },
        logger,
        { ...(progress === undefined ? {} : { progress }), now },
      );
      const report = 'runId' in result ? result : undefined;
      if (options.format === 'json') ctx.io.stdout(jsonDocument(result));
      else if (report === undefined) ctx.io.stdout(formatRebuildPlan(result as RebuildPlan));
      else ctx.io.stdout(formatRebuild(report, options.limit));
      return report !== undefined && report.differences.length > 0 ? EXIT.failed : EXIT.ok;
    } catch (err) {
      if (!(err instanceof RebuildError)) throw err;
      ctx.io.stderr(`tickertape: ${describeError(err)}\n`);
      return EXIT.refused;
    }
  },
});
