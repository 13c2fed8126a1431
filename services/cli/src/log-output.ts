import { createLogger, type Logger } from '@tickertape/logger';
import { pino, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  level: LevelWithSilent;
  /** LOG_FORMAT as set; absent means "decide by the terminal" (logFormatFor). */
  format: LogFormat | undefined;
}

/** A person at a terminal reads lines; a pipe, a file or a log collector gets JSON. */
export function logFormatFor(format: LogFormat | undefined, stderrIsTerminal: boolean): LogFormat {
  return format ?? (stderrIsTerminal ? 'pretty' : 'json');
}

/**
 * The command's diagnostics, on stderr (fd 2) so stdout stays its answer: one human line per
 * entry (time, level, message, fields) or the JSON lines the services write. Synchronous, so
 * nothing is lost when a command sets its exit code and returns.
 */
export function stderrLogger(level: LevelWithSilent, format: LogFormat, colour: boolean): Logger {
  const destination =
    format === 'pretty'
      ? pretty({
          destination: 2,
          sync: true,
          colorize: colour,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss',
          ignore: 'pid,hostname,name',
        })
      : pino.destination(2);
  return createLogger({ name: 'tickertape', level, destination });
}
