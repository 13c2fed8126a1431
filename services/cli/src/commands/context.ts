import type { Logger } from '@tickertape/logger';
import type { Readable } from 'node:stream';
import type { CliEnv } from '../env.js';
import type { LogSettings } from '../log-output.js';

/** Everything a command touches outside itself, so tests can run the real program in-process. */
export interface CliIo {
  /** Reads and checks the environment; called once, by the first command that runs. */
  loadEnv: () => CliEnv;
  makeLogger: (settings: LogSettings) => Logger;
  stdin: Readable;
  /** The command's answer. */
  stdout: (text: string) => void;
  /** Reports for people: bad input lines, warnings. */
  stderr: (text: string) => void;
  /**
   * Where long commands draw their progress (stderr in the binary): a bar on a terminal, lines
   * off one with --progress (`output/progress-option.ts`); none when absent.
   */
  progress?: NodeJS.WritableStream;
  /** A command that finished but must not report success (bad lines, unacknowledged ticks). */
  setExitCode: (code: number) => void;
  /** The clock `now` and relative times (`-1h`) are read from; tests fix it. Default Date.now. */
  now?: () => number;
}

/** What every command's run is handed: the io, the clock, and the env and logger. */
export interface CommandContext {
  io: CliIo;
  /** The environment, checked, and the logger it configures: made once, by the first command run. */
  ready: () => { env: CliEnv; logger: Logger };
  now: () => number;
}

export function commandContext(io: CliIo): CommandContext {
  let made: { env: CliEnv; logger: Logger } | undefined;
  return {
    io,
    now: io.now ?? Date.now,
    ready: () => {
      if (made === undefined) {
        const env = io.loadEnv();
        made = { env, logger: io.makeLogger({ level: env.LOG_LEVEL, format: env.LOG_FORMAT }) };
      }
      return made;
    },
  };
}
