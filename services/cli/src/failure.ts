import { ConfigError, DependencyUnreachableError, describeError } from '@tickertape/errors';
import { isBadQuery, isUnknownName } from '@tickertape/query';
import { EXIT } from './exit-codes.js';

/**
 * How a command that threw ends: one line on stderr, and an exit code scripts can act on: 2 for
 * input to fix (a refused query, a missing or malformed variable), 4 for a series or field the
 * store does not hold (the message names the nearest known names), 3 for a dependency that did
 * not answer (the same command may work later), 1 for anything else.
 */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  return { message: `tickertape: ${describeError(err)}\n`, exitCode: exitCodeOf(err) };
}

function exitCodeOf(err: unknown): number {
  if (isUnknownName(err)) return EXIT.unknownName;
  if (isBadQuery(err) || err instanceof ConfigError) return EXIT.refused;
  if (err instanceof DependencyUnreachableError) return EXIT.unreachable;
  return EXIT.failed;
}
