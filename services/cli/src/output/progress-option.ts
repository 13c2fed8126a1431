import type { StartProgress } from '@tickertape/clients';
import { Option } from 'commander';
import { startProgress } from '../progress.js';

/**
 * `--progress` / `--no-progress` of every long command. Unset, progress is drawn only when stderr
 * is a terminal: a pipe or a CI log gets it when asked for (`--progress`), since its reader may
 * be a script; stdout never gets it, so `--format json` stays one clean document.
 */
export function progressOptions(): Option[] {
  return [
    new Option(
      '--progress',
      'progress on stderr even when it is not a terminal (a line every few seconds)',
    ),
    new Option('--no-progress', 'no progress on stderr'),
  ];
}

function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** Where a command draws its progress: `stream` when wanted (see `progressOptions`), else none. */
export function progressStream(
  stream: NodeJS.WritableStream | undefined,
  wanted: boolean | undefined,
): NodeJS.WritableStream | undefined {
  if (stream === undefined || wanted === false) return undefined;
  return wanted === true || isTerminal(stream) ? stream : undefined;
}

/**
 * The `StartProgress` a library run reports through, drawing on `stream` when wanted; none
 * otherwise (the library then reports to nothing).
 */
export function progressStarter(
  stream: NodeJS.WritableStream | undefined,
  wanted: boolean | undefined,
  settings: { everyMs?: number; now?: () => number } = {},
): StartProgress | undefined {
  const drawn = progressStream(stream, wanted);
  if (drawn === undefined) return undefined;
  return (run) => startProgress({ ...run, ...settings, stream: drawn });
}

/** `{ startProgress }` when there is one, for options that must not hold an undefined. */
export function withStarter(start: StartProgress | undefined): { startProgress?: StartProgress } {
  return start === undefined ? {} : { startProgress: start };
}
