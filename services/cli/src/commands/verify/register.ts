import { DEAD_LETTER_TOPIC, TICK_TOPIC, type Store } from '@tickertape/topology';
import type { Command } from 'commander';
import { nonNegativeInt, positiveInt } from '../../arguments.js';
import { parseInstant, TIME_HELP } from '../../format/time.js';
import { maxFutureOption, maxLatenessOption } from '../../time-window-options.js';
import type { CommandContext } from '../context.js';
import { groupOption, storesOption } from '../store-options.js';
import { formatVerify, VERIFY_HELP, verifyCommand } from './run.js';

/** `tickertape verify`: refold the topic and compare every bucket, segment and dead letter. */
export function registerVerify(program: Command, ctx: CommandContext): void {
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
        const { env, logger } = ctx.ready();
        const nowMs = ctx.now();
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
        ctx.io.stdout(
          options.json
            ? `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value), 2)}\n`
            : formatVerify(report, options.limit),
        );
        if (report.differences.length > 0) ctx.io.setExitCode(1);
      },
    );
}
