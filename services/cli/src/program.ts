import { Command, type ErrorOptions } from 'commander';
import type { CommandDefinition } from './commands/command.js';
import { COMMANDS } from './commands/index.js';
import { commandContext, type CliIo, type CommandContext } from './commands/context.js';
import { EXIT } from './exit-codes.js';
import { FormatOption, settleFormat } from './output/format-option.js';
import { cliVersion } from './version.js';

export type { CliIo } from './commands/context.js';

export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting on --help and usage errors (in-process runs). */
  exitOverride?: boolean;
}

/**
 * A commander command whose usage errors (unknown option or command, missing or bad argument,
 * conflicting options) exit 2 like the commands' own refusals, not commander's 1, which the
 * CLI keeps for "failed". Commander passes 1 for a bad argument value, so only an exit code
 * given with no commander code (a command's own `usage`) is kept.
 */
class TickertapeCommand extends Command {
  override createCommand(name?: string): Command {
    return new TickertapeCommand(name);
  }

  override error(message: string, options: ErrorOptions = {}): never {
    const own = options.code === undefined && options.exitCode !== undefined;
    return super.error(message, { ...options, exitCode: own ? options.exitCode : EXIT.refused });
  }
}

/**
 * The command's options, `--format` settled against `--json` and an input format given the old
 * way (their deprecation notes on stderr), so each command reads one `format`.
 */
function withSettledFormat(
  command: Command,
  ctx: CommandContext,
  usage: (message: string) => never,
): Record<string, unknown> {
  const options = command.optsWithGlobals();
  const option = command.options.find((o): o is FormatOption => o instanceof FormatOption);
  if (option === undefined) return options;
  const settled = settleFormat(
    {
      format: String(options.format),
      formatGiven: command.getOptionValueSourceWithGlobals('format') === 'cli',
      json: options.json === true,
    },
    option,
  );
  for (const note of settled.notes) ctx.io.stderr(note);
  if (settled.refused !== undefined) usage(settled.refused);
  return {
    ...options,
    format: settled.format,
    ...(settled.inputFormat === undefined || options.inputFormat !== undefined
      ? {}
      : { inputFormat: settled.inputFormat }),
  };
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
      const usage = (message: string, exitCode?: number): never =>
        command.error(`error: ${message}`, exitCode === undefined ? {} : { exitCode });
      const code = await run(
        { ...ctx, usage },
        withSettledFormat(command, ctx, usage),
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
  const program = new TickertapeCommand('tickertape')
    .description('tickertape: Kafka → MongoDB time-series rollups')
    .version(cliVersion(), '-V, --version', 'print the version of tickertape')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  // Before the subcommands are added: they inherit it.
  if (settings.exitOverride === true) program.exitOverride();
  const ctx = commandContext(io);
  for (const definition of COMMANDS) addCommand(program, definition, ctx);
  return program;
}
