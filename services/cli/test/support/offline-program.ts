import { createLogger } from '@tickertape/logger';
import type { Command } from 'commander';
import { Readable } from 'node:stream';
import { buildProgram } from '../../src/program.js';

/** What the program printed, and whether it asked for its environment. */
export interface Printed {
  stdout: string;
  stderr: string;
  envRead: boolean;
}

/**
 * The real program with no environment to read, as unit tests run it: help, usage errors and
 * every refusal that comes before a command reads its environment (reading it throws).
 */
export function offlineProgram(): { program: Command; printed: Printed } {
  const printed: Printed = { stdout: '', stderr: '', envRead: false };
  const program = buildProgram(
    {
      loadEnv: () => {
        printed.envRead = true;
        throw new Error('no environment in unit tests');
      },
      makeLogger: () => createLogger({ name: 'test', level: 'silent' }),
      stdin: Readable.from([]),
      stdout: (text) => (printed.stdout += text),
      stderr: (text) => (printed.stderr += text),
      setExitCode: () => undefined,
    },
    { exitOverride: true },
  );
  return { program, printed };
}

/** `tickertape <args>` on offlineProgram: what it printed, and what it failed with (commander's exit). */
export async function runOffline(args: string[]): Promise<Printed & { error: unknown }> {
  const { program, printed } = offlineProgram();
  const error: unknown = await program.parseAsync(['node', 'tickertape', ...args]).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { ...printed, error };
}
