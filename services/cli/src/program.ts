import { Command } from 'commander';
import type { CommandDefinition } from './commands/command.js';
import { COMMANDS } from './commands/index.js';
import { commandContext, type CliIo, type CommandContext } from './commands/context.js';

export type { CliIo } from './commands/context.js';

export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting on --help and usage errors (in-process runs). */
  exitOverride?: boolean;
}

/** `definition` as a subcommand of `parent`, its own subcommands under it. */
function addCommand(parent: Command, definition: CommandDefinition, ctx: CommandContext): void {
  const command = parent.command(definition.name).description(definition.summary);
  if (definition.group !== undefined) command.helpGroup(definition.group);
  for (const argument of definition.arguments ?? []) command.addArgument(argument);
  for (const option of definition.options ?? []) command.addOption(option);
  if (definition.help !== undefined) command.addHelpText('after', definition.help);
  const run = definition.run?.bind(definition);
  if (run !== undefined)
    command.action(async () => {
      const code = await run(
        {
          ...ctx,
          usage: (message, exitCode) =>
            command.error(`error: ${message}`, exitCode === undefined ? {} : { exitCode }),
        },
        command.optsWithGlobals(),
        ...(command.processedArgs as never[]),
      );
      if (typeof code === 'number' && code !== 0) ctx.io.setExitCode(code);
    });
  for (const subcommand of definition.subcommands ?? []) addCommand(command, subcommand, ctx);
}

/**
 * The `tickertape` program: every command of `COMMANDS`, in its order, sharing one context (the
 * env and logger made once, by the first command that runs). A command's thrown error ends the
 * process in `main.ts` (`describeFailure`).
 */
export function buildProgram(io: CliIo, settings: ProgramOptions = {}): Command {
  const program = new Command('tickertape')
    .description('tickertape: Kafka → MongoDB time-series rollups')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  // Before the subcommands are added: they inherit it.
  if (settings.exitOverride === true) program.exitOverride();
  const ctx = commandContext(io);
  for (const definition of COMMANDS) addCommand(program, definition, ctx);
  return program;
}
