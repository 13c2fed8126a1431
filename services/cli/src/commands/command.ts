import type { Argument, Option } from 'commander';
import type { CommandContext } from './context.js';

/** What a command's `run` is handed besides its options and arguments. */
export interface CommandRun extends CommandContext {
  /**
   * Stops the command as commander stops a bad flag: `error: <message>` on stderr, then
   * `exitCode` (2, refused, unless given), for input that only the command can judge.
   */
  usage: (message: string, exitCode?: number) => never;
}

/**
 * One `tickertape` command: its name, help, options, arguments and work. The program
 * (`program.ts`) turns each entry of `COMMANDS` into a commander command; nothing else does.
 *
 * `options` and `arguments` are commander's own builders, in the order `--help` lists them.
 * `run` gets the parsed options (a parent's included, so `levels skip` sees `levels --database`)
 * and then the arguments in declaration order; the number it returns is the exit code of a
 * command that finished but must not report success (`EXIT` in `exit-codes.ts`).
 */
export interface CommandDefinition<O extends object = object, A extends unknown[] = unknown[]> {
  name: string;
  /** The line beside the name in the parent's `--help`, and the head of the command's own. */
  summary: string;
  /** The `--help` heading it is listed under, when not the default `Commands:`. */
  group?: string;
  arguments?: readonly Argument[];
  options?: readonly Option[];
  /** Text after the generated help: what the flags cannot say. */
  help?: string;
  /** None for a command that only groups others (`query`, `topics`): it shows its help. */
  run?(ctx: CommandRun, options: O, ...args: A): Promise<number | void>;
  subcommands?: readonly CommandDefinition[];
}

/** Keeps each entry's options and arguments types for its `run` while the table stays one list. */
export function defineCommand<O extends object, A extends unknown[] = []>(
  definition: CommandDefinition<O, A>,
): CommandDefinition<O, A> {
  return definition;
}
