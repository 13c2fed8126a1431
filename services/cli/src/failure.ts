import { describeError } from '@tickertape/errors';
import { isBadQuery, isUnknownName } from '@tickertape/query';
import { EXIT } from './exit-codes.js';

/**
 * How a command that threw ends: one line on stderr, and exit 2 for a refused query (bad range,
 * unknown level, too many series, over budget) so scripts can tell "fix the query" from "the
 * system failed" (1); exit 4 for a series or field the store does not hold, the message naming
 * the nearest known names.
 */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  return {
    message: `tickertape: ${describeError(err)}\n`,
    exitCode: isUnknownName(err) ? EXIT.unknownName : isBadQuery(err) ? EXIT.refused : EXIT.failed,
  };
}
