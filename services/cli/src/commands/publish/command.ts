import { TICK_TOPIC } from '@tickertape/topology';
import { Argument, Option } from 'commander';
import { open } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import { BadInputError } from '@tickertape/tick';
import { EXIT } from '../../exit-codes.js';
import { formatOptions, type OutputFormat } from '../../output/format-option.js';
import { jsonDocument } from '../../output/json.js';
import { progressOptions, progressStarter } from '../../output/progress-option.js';
import { NOTHING, type Progress } from '../../progress.js';
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

async function openInput(file: string): Promise<{ stream: Readable; bytes: number }> {
  try {
    const handle = await open(file, 'r');
    const { size } = await handle.stat();
    return { stream: handle.createReadStream(), bytes: size };
  } catch (err) {
    throw new BadInputError(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** `input` as it is read, its bytes counted into `progress` (a file's size is known up front). */
function counted(input: Readable, progress: Progress): Readable {
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      progress.update(read);
      done(null, chunk);
    },
  });
  // An unreadable file ends the counter with its error, so the reader sees it.
  return pipeline(input, counter, () => undefined);
}

/** `tickertape publish`: ticks from JSON lines or CSV. */
export const publishDefinition = defineCommand({
  name: 'publish',
  summary: 'publish ticks from JSON lines or CSV, read from FILE or stdin (-)',
  arguments: [new Argument('[file]', 'input file, - for stdin').default('-')],
  options: [
    new Option('--input-format <format>', 'input format (default: from the file name)').choices(
      INPUT_FORMATS,
    ),
    new Option('--topic <name>', 'topic to publish to (must exist)').default(TICK_TOPIC),
    new Option(
      '--dry-run',
      'check every line as the workers would, publish nothing; exit 2 if any is bad',
    ).default(false),
    maxLatenessOption(),
    maxFutureOption(),
    ...formatOptions(['table', 'json'], { legacyInput: true }),
    ...progressOptions(),
  ],
  help: PUBLISH_HELP,
  async run(
    ctx,
    options: {
      inputFormat?: InputFormat;
      topic: string;
      format: OutputFormat;
      progress?: boolean;
      dryRun: boolean;
      maxLatenessMs: number;
      maxFutureMs: number;
    },
    file: string,
  ) {
    const { env, logger } = ctx.ready();
    // Progress in bytes of a FILE; stdin has no size to measure it against.
    let progress = NOTHING;
    let input = ctx.io.stdin;
    if (file !== '-') {
      const opened = await openInput(file);
      const start = progressStarter(ctx.io.progress, options.progress, { now: ctx.now });
      const label = options.dryRun ? 'dry run' : 'publish';
      progress = start?.({ total: opened.bytes, unit: 'bytes', label }) ?? NOTHING;
      input = counted(opened.stream, progress);
    }
    const format = inputFormat(options.inputFormat, file);
    const onBadLine = (line: number, reason: string) => ctx.io.stderr(`line ${line}: ${reason}\n`);
    if (options.dryRun) {
      let checked: DryRunResult;
      try {
        checked = await dryRun(
          env,
          {
            format,
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
      } finally {
        progress.stop();
      }
      ctx.io.stderr(warningLine(checked.clocksProblem));
      ctx.io.stdout(options.format === 'json' ? jsonDocument(checked) : formatDryRun(checked));
      return checked.bad > 0 ? EXIT.refused : EXIT.ok;
    }
    let result;
    try {
      result = await publish(env, { format, topic: options.topic, input }, logger, onBadLine);
    } finally {
      progress.stop();
    }
    ctx.io.stderr(warningLine(result.clocksProblem));
    ctx.io.stdout(options.format === 'json' ? jsonDocument(result) : formatPublish(result));
    if (result.firstFailure !== undefined) ctx.io.stderr(`first failure: ${result.firstFailure}\n`);
    return result.bad > 0 || result.failed > 0 ? EXIT.failed : EXIT.ok;
  },
});
