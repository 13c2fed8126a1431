import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import { commandContext, type CliIo } from './commands/context.js';

export type { CliIo } from './commands/context.js';

export interface ProgramOptions {
  /** Throw a CommanderError instead of exiting on --help and usage errors (in-process runs). */
  exitOverride?: boolean;
}

/** The `tickertape` program: every command of `commands/index.ts`, sharing one context. */
export function buildProgram(io: CliIo, settings: ProgramOptions = {}): Command {
  const program = new Command('tickertape')
    .description('tickertape: Kafka → MongoDB time-series rollups')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  // Before the subcommands are added: they inherit it.
  if (settings.exitOverride === true) program.exitOverride();
  const ctx = commandContext(io);
  for (const register of COMMANDS) register(program, ctx);
  return program;
}
