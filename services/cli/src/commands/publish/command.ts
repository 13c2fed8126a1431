import { TICK_TOPIC } from '@tickertape/topology';
import { Argument, Option } from 'commander';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { BadInputError } from '@tickertape/tick';
import { EXIT } from '../../exit-codes.js';
import { warningLine } from '../../producer-clocks.js';
import { maxFutureOption, maxLatenessOption } from '../../time-window-options.js';
import { defineCommand } from '../command.js';
import { describeFailure } from '../../failure.js';
import { dryRun, formatDryRun, type DryRunResult } from './dry-run.js';
import {
  formatPublish,
  INPUT_FORMATS,
  inputFormat,
  publish,
  PUBLISH_HELP,
  type InputFormat,
} from './run.js';

async function openInput(file: string): Promise<Readable> {
  try {
    return (await open(file, 'r')).createReadStream();
  } catch (err) {
    throw new BadInputError(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** `tickertape publish`: ticks from JSON lines or CSV. */
export const publishDefinition = defineCommand({
  name: 'publish',
  summary: 'publish ticks from JSON lines or CSV, read from FILE or stdin (-)',
  arguments: [new Argument('[file]', 'input file, - for stdin').default('-')],
  options: [
    new Option('--format <format>', 'input format (default: from the file name)').choices(
      INPUT_FORMATS,
    ),
    new Option('--topic <name>', 'topic to publish to (must exist)').default(TICK_TOPIC),
    new Option(
      '--dry-run',
      'check every line as the workers would, publish nothing; exit 2 if any is bad',
    ).default(false),
    maxLatenessOption(),
    maxFutureOption(),
  ],
  help: PUBLISH_HELP,
  async run(
    ctx,
    options: {
      format?: InputFormat;
      topic: string;
      dryRun: boolean;
      maxLatenessMs: number;
      maxFutureMs: number;
    },
    file: string,
  ) {
    const { env, logger } = ctx.ready();
    const input = file === '-' ? ctx.io.stdin : await openInput(file);
    const onBadLine = (line: number, reason: string) => ctx.io.stderr(`line ${line}: ${reason}\n`);
    if (options.dryRun) {
      let checked: DryRunResult;
      try {
        checked = await dryRun(
          env,
          {
            format: inputFormat(options.format, file),
            topic: options.topic,
            input,
            bounds: { maxLatenessMs: options.maxLatenessMs, maxFutureMs: options.maxFutureMs },
            nowMs: ctx.now(),
          },
          logger,
          onBadLine,
        );
      } catch (err) {
        // An input nothing can be read from (a bad CSV header): the file may not be published
        // as it is, which is the dry run's "bad line" answer, exit 2.
        if (!(err instanceof BadInputError)) throw err;
        ctx.io.stderr(describeFailure(err).message);
        return EXIT.refused;
      }
      ctx.io.stderr(warningLine(checked.clocksProblem));
      ctx.io.stdout(formatDryRun(checked));
      return checked.bad > 0 ? EXIT.refused : EXIT.ok;
    }
    const result = await publish(
      env,
      { format: inputFormat(options.format, file), topic: options.topic, input },
      logger,
      onBadLine,
    );
    ctx.io.stderr(warningLine(result.clocksProblem));
    ctx.io.stdout(formatPublish(result));
    if (result.firstFailure !== undefined) ctx.io.stderr(`first failure: ${result.firstFailure}\n`);
    return result.bad > 0 || result.failed > 0 ? EXIT.failed : EXIT.ok;
  },
});
