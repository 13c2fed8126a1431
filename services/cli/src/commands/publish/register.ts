import { TICK_TOPIC } from '@tickertape/topology';
import { Option, type Command } from 'commander';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { BadInputError } from '@tickertape/tick';
import type { CommandContext } from '../context.js';
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
export function registerPublish(program: Command, ctx: CommandContext): void {
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
      const { env, logger } = ctx.ready();
      const input = file === '-' ? ctx.io.stdin : await openInput(file);
      const result = await publish(
        env,
        { format: inputFormat(options.format, file), topic: options.topic, input },
        logger,
        (line, reason) => ctx.io.stderr(`line ${line}: ${reason}\n`),
      );
      ctx.io.stdout(formatPublish(result));
      if (result.firstFailure !== undefined)
        ctx.io.stderr(`first failure: ${result.firstFailure}\n`);
      if (result.bad > 0 || result.failed > 0) ctx.io.setExitCode(1);
    });
}
